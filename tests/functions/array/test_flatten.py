import numpy
import pytest

import minichainer
import minichainer.functions as F


@pytest.mark.parametrize('shape', [(3, 4), (2, 3, 2), ()])
def test_flatten(shape, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=numpy.float32)
    y = F.flatten(x)
    assert isinstance(y, minichainer.Variable)
    assert y.shape == (x.size,)
    numpy.testing.assert_array_equal(y.array, x.ravel())
    gy = numpy.asarray(numpy.random.uniform(-1, 1, (x.size,)), dtype=numpy.float32)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=numpy.float32)
    check_grads(F.flatten, x, gy, ggx, numpy.float32)
