import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('source, destination', [
    (0, 2), (-1, 0), ((0, 1), (2, 0)), ((0, 2), (-1, -2)), ((), ()),
])
def test_moveaxis(dtype, source, destination, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (2, 3, 4)), dtype=dtype)
    y = F.moveaxis(x, source, destination)
    expected = numpy.moveaxis(x, source, destination)
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.moveaxis(x, source, destination)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('source, destination', [(3, 0), (0, -4)])
def test_moveaxis_invalid_axis(source, destination):
    x = numpy.zeros((2, 3, 4), numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.moveaxis(x, source, destination)


def test_moveaxis_int_input_rejected():
    with pytest.raises(type_check.InvalidType):
        F.moveaxis(numpy.zeros((2, 3), numpy.int32), 0, 1)


def test_moveaxis_duplicate_axes():
    with pytest.raises(ValueError):
        F.moveaxis(numpy.zeros((2, 3, 4), numpy.float32), (0, 0), (1, 2))
