import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check


@pytest.mark.parametrize('in_dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('out_dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_cast_float(in_dtype, out_dtype):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (3, 2)), dtype=in_dtype)
    y = F.cast(x, out_dtype)
    assert y.dtype == out_dtype
    numpy.testing.assert_array_equal(y.array, x.astype(out_dtype))

    def f(x):
        return F.cast(x, out_dtype)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, (3, 2)), dtype=out_dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, (3, 2)), dtype=in_dtype)
    tol = {'atol': 5e-3, 'rtol': 5e-3} if numpy.float16 in (in_dtype, out_dtype) else {}
    gradient_check.check_backward(f, x, gy, eps=0.125, **tol)
    gradient_check.check_double_backward(f, x, gy, ggx, eps=0.125, **tol)


def test_cast_grad_dtype():
    x = minichainer.Variable(numpy.ones(3, numpy.float32))
    y = F.cast(x, numpy.float16)
    y.grad = numpy.ones(3, numpy.float16)
    y.backward()
    assert x.grad.dtype == numpy.float32


def test_cast_int_input_has_no_grad():
    x = minichainer.Variable(numpy.arange(3, dtype=numpy.int32))
    y = F.cast(x, numpy.float32)
    numpy.testing.assert_array_equal(y.array, [0., 1., 2.])
    assert y.dtype == numpy.float32


def test_cast_same_dtype_no_backprop():
    x = numpy.ones(3, numpy.float32)
    with minichainer.no_backprop_mode():
        y = F.cast(x, numpy.float32)
    assert isinstance(y, minichainer.Variable)
    assert y.creator is None
    numpy.testing.assert_array_equal(y.array, x)


def test_cast_same_dtype_keeps_graph():
    x = minichainer.Variable(numpy.ones(3, numpy.float32))
    y = F.cast(x, 'float32')
    assert y.creator is not None
