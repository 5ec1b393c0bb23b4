import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(3,), (2, 3, 4)])
def test_flipud(dtype, shape, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.flipud(x)
    numpy.testing.assert_array_equal(y.array, numpy.flipud(x))
    gy = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(F.flipud, x, gy, ggx, dtype)


@pytest.mark.parametrize('x', [numpy.zeros((), numpy.float32),
                               numpy.zeros((2, 3), numpy.int32)])
def test_flipud_invalid(x):
    with pytest.raises(type_check.InvalidType):
        F.flipud(x)
