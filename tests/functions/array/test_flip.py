import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, axis', [((3,), 0), ((2, 3), 1), ((2, 3, 4), -1),
                                         ((2, 3, 4), -3)])
def test_flip(dtype, shape, axis, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.flip(x, axis)
    numpy.testing.assert_array_equal(y.array, numpy.flip(x, axis))

    def f(x):
        return F.flip(x, axis)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('shape, axis', [((), 0), ((2, 3), 2), ((2, 3), -3)])
def test_flip_invalid(shape, axis):
    with pytest.raises(type_check.InvalidType):
        F.flip(numpy.zeros(shape, numpy.float32), axis)


def test_flip_axis_type():
    with pytest.raises(TypeError):
        F.flip(numpy.zeros((2, 3), numpy.float32), (0, 1))
