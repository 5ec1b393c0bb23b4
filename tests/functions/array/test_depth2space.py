import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


def _depth2space_reference(x, r):
    n, c, h, w = x.shape
    oc = c // (r * r)
    y = numpy.empty((n, oc, h * r, w * r), x.dtype)
    for k in range(oc):
        for i in range(r):
            for j in range(r):
                y[:, k, i::r, j::r] = x[:, (i * r + j) * oc + k]
    return y


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, r', [((2, 8, 3, 2), 2), ((1, 9, 2, 3), 3), ((1, 3, 2, 2), 1)])
def test_depth2space_and_back(dtype, shape, r, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.depth2space(x, r)
    expected = _depth2space_reference(x, r)
    numpy.testing.assert_array_equal(y.array, expected)
    numpy.testing.assert_array_equal(F.space2depth(y, r).array, x)

    def f(x):
        return F.depth2space(x, r)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('x', [numpy.zeros((2, 8, 3), numpy.float32),
                               numpy.zeros((2, 8, 3, 2), numpy.int32),
                               numpy.zeros((2, 6, 3, 2), numpy.float32)])
def test_depth2space_invalid(x):
    with pytest.raises(type_check.InvalidType):
        F.depth2space(x, 2)
