import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('t_dtype', [numpy.int32, numpy.int64])
def test_select_item(dtype, t_dtype, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (4, 3)), dtype=dtype)
    t = numpy.array([2, 0, 1, 2], t_dtype)
    y = F.select_item(x, t)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, x[numpy.arange(4), t])

    def f(x):
        return F.select_item(x, t)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, (4,)), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


def test_select_item_grad_values():
    x = minichainer.Variable(numpy.zeros((2, 3), numpy.float32))
    y = F.select_item(x, numpy.array([1, 2], numpy.int32))
    y.grad = numpy.array([5, 7], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 5, 0], [0, 0, 7]])


@pytest.mark.parametrize('t', [[0, 3], [-1, 0]])
def test_select_item_label_out_of_range(t):
    with pytest.raises(ValueError, match='label'):
        F.select_item(numpy.zeros((2, 3), numpy.float32), numpy.array(t, numpy.int32))


@pytest.mark.parametrize('x_shape, t', [
    ((2, 3), numpy.zeros(3, numpy.int32)),
    ((2, 3, 1), numpy.zeros(2, numpy.int32)),
    ((2, 3), numpy.zeros(2, numpy.float32)),
    ((2, 3), numpy.zeros((2, 1), numpy.int32)),
])
def test_select_item_invalid_type(x_shape, t):
    with pytest.raises(type_check.InvalidType):
        F.select_item(numpy.zeros(x_shape, numpy.float32), t)
