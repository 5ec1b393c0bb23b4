import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('axis, start', [
    (0, 0), (0, 2), (0, 3), (2, 0), (1, 3), (-1, 0), (1, -1), (-3, -2), (2, 2),
])
def test_rollaxis(dtype, axis, start, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (2, 3, 4)), dtype=dtype)
    y = F.rollaxis(x, axis, start)
    expected = numpy.rollaxis(x, axis, start)
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.rollaxis(x, axis, start)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('axis, start', [(3, 0), (-4, 0), (0, 4), (0, -4)])
def test_rollaxis_invalid(axis, start):
    with pytest.raises(type_check.InvalidType):
        F.rollaxis(numpy.zeros((2, 3, 4), numpy.float32), axis, start)


def test_rollaxis_non_int():
    with pytest.raises(TypeError):
        F.rollaxis(numpy.zeros((2, 3), numpy.float32), 0.5)
