import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('axis', [0, 1, -1])
@pytest.mark.parametrize('inv', [False, True])
def test_permutate(dtype, axis, inv, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (4, 4, 4)), dtype=dtype)
    indices = numpy.array([2, 0, 3, 1], numpy.int32)
    y = F.permutate(x, indices, axis=axis, inv=inv)
    if inv:
        idx = numpy.argsort(indices)
    else:
        idx = indices
    expected = numpy.take(x, idx, axis=axis)
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.permutate(x, indices, axis=axis, inv=inv)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


def test_permutate_variable_indices():
    x = numpy.arange(3, dtype=numpy.float32)
    ind = minichainer.Variable(numpy.array([1, 2, 0], numpy.int32))
    numpy.testing.assert_array_equal(F.permutate(x, ind).array, [1, 2, 0])


@pytest.mark.parametrize('indices', [
    numpy.array([0, 1, 1], numpy.int32), numpy.array([0, 1, 3], numpy.int32),
    numpy.array([-1, 0, 1], numpy.int32), numpy.array([0., 1., 2.], numpy.float32),
    numpy.array([[0, 1, 2]], numpy.int32),
])
def test_permutate_bad_indices(indices):
    with pytest.raises(ValueError):
        F.permutate(numpy.zeros(3, numpy.float32), indices)


def test_permutate_bad_axis():
    with pytest.raises(type_check.InvalidType):
        F.permutate(numpy.zeros(3, numpy.float32), numpy.array([0, 1, 2], numpy.int32), 1)
