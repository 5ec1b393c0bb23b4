import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('axis', [0, 1, 2, -1, -3])
def test_expand_dims(dtype, axis, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (3, 2)), dtype=dtype)
    y = F.expand_dims(x, axis)
    expected = numpy.expand_dims(x, axis)
    assert y.shape == expected.shape
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.expand_dims(x, axis)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('axis', [3, -4])
def test_expand_dims_invalid(axis):
    with pytest.raises(type_check.InvalidType):
        F.expand_dims(numpy.zeros((3, 2), numpy.float32), axis)
