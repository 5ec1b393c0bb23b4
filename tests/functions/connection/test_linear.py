import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.functions.connection.linear import linear
from minichainer.utils import type_check

TOL = {numpy.float16: {'atol': 5e-3, 'rtol': 5e-2},
       numpy.float32: {'atol': 1e-3, 'rtol': 1e-2},
       numpy.float64: {'atol': 1e-7, 'rtol': 1e-7}}


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('nobias', [False, True])
def test_linear_forward_backward(dtype, nobias):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (4, 3)).astype(dtype)
    W = rng.uniform(-1, 1, (2, 3)).astype(dtype)
    b = rng.uniform(-1, 1, (2,)).astype(dtype)
    y = linear(x, W, None if nobias else b)
    expect = x.astype(numpy.float64).dot(W.T.astype(numpy.float64))
    if not nobias:
        expect += b
    assert y.dtype == dtype and y.shape == (4, 2)
    numpy.testing.assert_allclose(y.array, expect, **TOL[dtype])
    gy = rng.uniform(-1, 1, (4, 2)).astype(dtype)
    ggx = rng.uniform(-1, 1, x.shape).astype(dtype)
    ggW = rng.uniform(-1, 1, W.shape).astype(dtype)
    ggb = rng.uniform(-1, 1, b.shape).astype(dtype)
    args = (x, W) if nobias else (x, W, b)
    ggs = (ggx, ggW) if nobias else (ggx, ggW, ggb)
    opt = {'dtype': numpy.float64} if dtype == numpy.float16 else {}
    gradient_check.check_backward(linear, args, gy, **TOL[dtype], **opt)
    gradient_check.check_double_backward(linear, args, gy, ggs, **TOL[dtype], **opt)


def test_linear_n_batch_axes():
    rng = numpy.random.RandomState(1)
    x = rng.randn(2, 3, 4, 5)
    W = rng.randn(6, 20)
    b = rng.randn(6)
    y = linear(x, W, b, n_batch_axes=2)
    assert y.shape == (2, 3, 6)
    numpy.testing.assert_allclose(y.array, x.reshape(6, 20).dot(W.T).reshape(2, 3, 6) + b)
    gradient_check.check_backward(lambda x, W, b: linear(x, W, b, n_batch_axes=2),
                                  (x, W, b), rng.randn(2, 3, 6), atol=1e-6, rtol=1e-6)


def test_linear_flattens_trailing_axes():
    x = numpy.arange(24, dtype='f').reshape(2, 3, 4)
    W = numpy.ones((5, 12), 'f')
    y = F.linear(x, W)
    numpy.testing.assert_allclose(y.array, numpy.repeat(x.reshape(2, 12).sum(1)[:, None], 5, 1))


def test_linear_bad_input():
    with pytest.raises(ValueError):
        linear(numpy.zeros((2, 3), 'f'), numpy.zeros((4, 3), 'f'), n_batch_axes=0)
    with pytest.raises(type_check.InvalidType):
        linear(numpy.zeros((2, 3), 'f'), numpy.zeros((4, 5), 'f'))
    with pytest.raises(type_check.InvalidType):
        linear(numpy.zeros((2, 3), 'i'), numpy.zeros((4, 3), 'f'))
    with pytest.raises(type_check.InvalidType):
        linear(numpy.zeros((2, 3), 'f'), numpy.zeros((4, 3), 'f'), numpy.zeros(5, 'f'))


def test_linear_mixed_dtype_grads_cast():
    x = minichainer.Variable(numpy.ones((2, 3), numpy.float16))
    W = minichainer.Variable(numpy.ones((4, 3), numpy.float32))
    y = linear(x, W)
    assert y.dtype == numpy.float16
    y.grad = numpy.ones((2, 4), numpy.float16)
    y.backward()
    assert x.grad.dtype == numpy.float16
    assert W.grad.dtype == numpy.float32
    numpy.testing.assert_allclose(W.grad, 2 * numpy.ones((4, 3)))
