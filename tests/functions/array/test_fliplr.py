import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape', [(2, 3), (2, 3, 4)])
def test_fliplr(dtype, shape, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.fliplr(x)
    numpy.testing.assert_array_equal(y.array, numpy.fliplr(x))
    gy = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(F.fliplr, x, gy, ggx, dtype)


@pytest.mark.parametrize('x', [numpy.zeros(3, numpy.float32),
                               numpy.zeros((2, 3), numpy.int32)])
def test_fliplr_invalid(x):
    with pytest.raises(type_check.InvalidType):
        F.fliplr(x)
