import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


def _space2depth_reference(x, r):
    n, c, h, w = x.shape
    y = numpy.empty((n, c * r * r, h // r, w // r), x.dtype)
    for k in range(c):
        for i in range(r):
            for j in range(r):
                y[:, (i * r + j) * c + k] = x[:, k, i::r, j::r]
    return y


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, r', [((2, 2, 4, 6), 2), ((1, 1, 3, 6), 3)])
def test_space2depth(dtype, shape, r, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.space2depth(x, r)
    expected = _space2depth_reference(x, r)
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.space2depth(x, r)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('x', [numpy.zeros((2, 2, 4), numpy.float32),
                               numpy.zeros((2, 2, 4, 4), numpy.int32),
                               numpy.zeros((2, 2, 3, 4), numpy.float32)])
def test_space2depth_invalid(x):
    with pytest.raises(type_check.InvalidType):
        F.space2depth(x, 2)
