import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, axis', [
    ((1, 3, 1, 2), None), ((1, 3, 1, 2), 0), ((1, 3, 1, 2), (0, 2)),
    ((1, 3, 1, 2), -2), ((1, 3, 1, 2), (2, -4)), ((1, 1), None), ((3,), None),
])
def test_squeeze(dtype, shape, axis, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.squeeze(x, axis)
    expected = numpy.squeeze(x, axis)
    assert y.shape == expected.shape
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.squeeze(x, axis)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


def test_squeeze_non_unit_axis():
    with pytest.raises(ValueError):
        F.squeeze(numpy.zeros((1, 3), numpy.float32), 1)


@pytest.mark.parametrize('axis', [2, -3])
def test_squeeze_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.squeeze(numpy.zeros((1, 3), numpy.float32), axis)


def test_squeeze_bad_axis_type():
    with pytest.raises(TypeError):
        F.squeeze(numpy.zeros((1, 3), numpy.float32), [0])
