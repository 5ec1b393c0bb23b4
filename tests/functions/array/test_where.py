import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('c_shape, x_shape, y_shape', [
    ((3, 4), (3, 4), (3, 4)),
    ((3, 4), (4,), (3, 1)),
    ((1, 4), (3, 4), ()),
    ((), (3, 4), (3, 4)),
])
def test_where(dtype, c_shape, x_shape, y_shape, check_grads):
    c = numpy.random.uniform(-1, 1, c_shape) > 0
    x = numpy.asarray(numpy.random.uniform(-1, 1, x_shape), dtype=dtype)
    y = numpy.asarray(numpy.random.uniform(-1, 1, y_shape), dtype=dtype)
    z = F.where(c, x, y)
    expected = numpy.where(c, x, y)
    assert z.dtype == dtype
    numpy.testing.assert_array_equal(z.array, expected)

    def f(x, y):
        return F.where(c, x, y)
    gz = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x_shape), dtype=dtype)
    ggy = numpy.asarray(numpy.random.uniform(-1, 1, y_shape), dtype=dtype)
    check_grads(f, (x, y), gz, (ggx, ggy), dtype)


def test_where_condition_variable():
    c = minichainer.Variable(numpy.array([True, False]))
    z = F.where(c, numpy.array([1., 2.], numpy.float32), numpy.array([3., 4.], numpy.float32))
    numpy.testing.assert_array_equal(z.array, [1., 4.])


def test_where_non_bool_condition():
    with pytest.raises(type_check.InvalidType):
        F.where(numpy.zeros(2, numpy.int32), numpy.zeros(2, numpy.float32),
                numpy.zeros(2, numpy.float32))


def test_where_dtype_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.where(numpy.zeros(2, bool), numpy.zeros(2, numpy.float32),
                numpy.zeros(2, numpy.float64))


def test_where_not_broadcastable():
    with pytest.raises(type_check.InvalidType):
        F.where(numpy.zeros(3, bool), numpy.zeros(2, numpy.float32),
                numpy.zeros(2, numpy.float32))
