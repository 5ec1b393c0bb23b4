import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, offset, axis1, axis2', [
    ((3, 4), 0, 0, 1), ((3, 4), 1, 0, 1), ((3, 4), -2, 1, 0), ((2, 3, 4), 0, -1, 0),
    ((2, 3, 4), 1, 1, 2),
])
def test_diagonal(dtype, shape, offset, axis1, axis2, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.diagonal(x, offset, axis1, axis2)
    expected = numpy.diagonal(x, offset, axis1, axis2)
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.diagonal(x, offset, axis1, axis2)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('axis1, axis2', [(0, 2), (-3, 0)])
def test_diagonal_invalid(axis1, axis2):
    with pytest.raises(type_check.InvalidType):
        F.diagonal(numpy.zeros((2, 3), numpy.float32), 0, axis1, axis2)
