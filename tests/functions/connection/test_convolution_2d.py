import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

from ._conv_ref import conv_ref

TOL = {numpy.float16: {'atol': 5e-3, 'rtol': 5e-2},
       numpy.float32: {'atol': 1e-3, 'rtol': 1e-2},
       numpy.float64: {'atol': 1e-7, 'rtol': 1e-6}}

CASES = [
    # (x shape, W shape, stride, pad, cover_all, dilate, groups, nobias)
    ((2, 3, 5, 4), (2, 3, 3, 2), 1, 1, False, 1, 1, False),
    ((1, 2, 6, 7), (3, 2, 2, 3), (2, 1), (0, 1), True, 1, 1, True),
    ((2, 4, 5, 5), (4, 2, 3, 3), 1, 2, False, 2, 2, False),
    ((1, 3, 7, 6), (2, 3, 2, 2), 3, 1, True, (1, 2), 1, False),
]


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_convolution_2d(case, dtype):
    xs, ws, stride, pad, cover_all, dilate, groups, nobias = case
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, xs).astype(dtype)
    W = rng.uniform(-1, 1, ws).astype(dtype)
    b = None if nobias else rng.uniform(-1, 1, ws[0]).astype(dtype)

    def f(*args):
        return F.convolution_2d(*args, stride=stride, pad=pad, cover_all=cover_all,
                                dilate=dilate, groups=groups)

    args = (x, W) if nobias else (x, W, b)
    y = f(*args)
    pair = (lambda v: v if isinstance(v, tuple) else (v, v))
    expect = conv_ref(x, W, b, pair(stride), pair(pad), pair(dilate), groups, cover_all)
    assert y.dtype == dtype
    assert y.shape == expect.shape
    numpy.testing.assert_allclose(y.array, expect, **TOL[dtype])
    if dtype == numpy.float16:
        return
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    gradient_check.check_backward(f, args, gy, **TOL[dtype])
    ggs = tuple(rng.uniform(-1, 1, a.shape).astype(dtype) for a in args)
    gradient_check.check_double_backward(f, args, gy, ggs, **TOL[dtype])


def test_convolution_2d_float16_backward():
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, (1, 2, 4, 4)).astype(numpy.float16)
    W = rng.uniform(-1, 1, (2, 2, 2, 2)).astype(numpy.float16)
    gy = rng.uniform(-1, 1, (1, 2, 3, 3)).astype(numpy.float16)
    gradient_check.check_backward(F.convolution_2d, (x, W), gy, dtype=numpy.float64,
                                  atol=5e-3, rtol=5e-2)


def test_convolution_2d_grad_values_match_reference():
    rng = numpy.random.RandomState(2)
    x = minichainer.Variable(rng.randn(2, 3, 5, 5))
    W = minichainer.Variable(rng.randn(4, 3, 3, 3))
    b = minichainer.Variable(rng.randn(4))
    y = F.convolution_2d(x, W, b, stride=2, pad=1)
    gy = rng.randn(*y.shape)
    y.grad = gy
    y.backward()
    numpy.testing.assert_allclose(b.grad, gy.sum(axis=(0, 2, 3)))
    # gW via the reference: d/dW sum(gy * conv(x, W)) = conv of x with gy
    eps = 1e-6
    Wp = W.array.copy()
    Wp[1, 2, 0, 1] += eps
    num = ((conv_ref(x.array, Wp, None, (2, 2), (1, 1), (1, 1), 1)
            - conv_ref(x.array, W.array, None, (2, 2), (1, 1), (1, 1), 1)) * gy).sum()
    numpy.testing.assert_allclose(W.grad[1, 2, 0, 1], num / eps, rtol=1e-4)


def test_convolution_2d_backward_twice_recomputes_col():
    rng = numpy.random.RandomState(3)
    x = minichainer.Variable(rng.randn(1, 2, 4, 4))
    W = minichainer.Variable(rng.randn(2, 2, 3, 3))
    y = F.convolution_2d(x, W, pad=1)
    y.grad = numpy.ones(y.shape)
    y.backward()
    g1 = W.grad.copy()
    W.cleargrad()
    y.grad = numpy.ones(y.shape)  # the first backward consumed it (as in Chainer)
    y.backward()
    numpy.testing.assert_allclose(W.grad, g1)


def test_convolution_2d_type_errors():
    x = numpy.zeros((1, 3, 4, 4), 'f')
    with pytest.raises(type_check.InvalidType):
        F.convolution_2d(x, numpy.zeros((2, 3, 3), 'f'))
    with pytest.raises(type_check.InvalidType):
        F.convolution_2d(x, numpy.zeros((2, 2, 3, 3), 'f'))
    with pytest.raises(type_check.InvalidType):
        F.convolution_2d(x.astype('i'), numpy.zeros((2, 3, 3, 3), 'f'))
    with pytest.raises(type_check.InvalidType):
        F.convolution_2d(x, numpy.zeros((2, 3, 3, 3), 'f'), numpy.zeros(3, 'f'))
    with pytest.raises(TypeError):
        F.convolution_2d(x, numpy.zeros((2, 3, 3, 3), 'f'), foo=1)
    with pytest.raises(ValueError):
        F.convolution_2d(x, numpy.zeros((2, 3, 3, 3), 'f'), deterministic=True)


def test_dilated_convolution_2d():
    rng = numpy.random.RandomState(4)
    x = rng.randn(1, 2, 7, 7)
    W = rng.randn(3, 2, 3, 3)
    y = F.dilated_convolution_2d(x, W, None, 1, 2, dilate=2)
    numpy.testing.assert_allclose(
        y.array, conv_ref(x, W, None, (1, 1), (2, 2), (2, 2), 1), rtol=1e-10)


def test_depthwise_convolution_2d():
    rng = numpy.random.RandomState(5)
    x = rng.randn(2, 3, 5, 5)
    W = rng.randn(2, 3, 3, 3)
    b = rng.randn(6)
    y = F.depthwise_convolution_2d(x, W, b, stride=1, pad=1)
    assert y.shape == (2, 6, 5, 5)
    for i in range(3):
        for m in range(2):
            ref = conv_ref(x[:, i:i + 1], W[m:m + 1, i:i + 1], None, (1, 1), (1, 1),
                           (1, 1), 1)[:, 0]
            numpy.testing.assert_allclose(y.array[:, i * 2 + m], ref + b[i * 2 + m],
                                          rtol=1e-10, atol=1e-12)
    gradient_check.check_backward(
        lambda x, W, b: F.depthwise_convolution_2d(x, W, b, 1, 1),
        (x, W, b), rng.randn(*y.shape), atol=1e-6, rtol=1e-6)


def test_convolution_2d_noncontiguous_inputs():
    rng = numpy.random.RandomState(6)
    x = numpy.asfortranarray(rng.randn(2, 4, 5, 4))
    W = numpy.asfortranarray(rng.randn(4, 2, 3, 3))
    b = rng.randn(8)[::2]
    args = (x, W, b)
    f = (lambda x, W, b: F.convolution_2d(x, W, b, stride=2, pad=1, groups=2))
    y = f(*args)
    numpy.testing.assert_allclose(
        y.array, conv_ref(x, W, b, (2, 2), (1, 1), (1, 1), 2), rtol=1e-10, atol=1e-12)
    gy = numpy.asfortranarray(rng.randn(*y.shape))
    gradient_check.check_backward(f, args, gy, atol=1e-7, rtol=1e-6)
    # a single output channel with a non-contiguous gradient from F.sum
    y = F.convolution_2d(numpy.ones((2, 3, 6, 6), 'f'),
                         minichainer.Variable(numpy.ones((1, 3, 3, 3), 'f')))
    F.sum(y).backward()


def test_convolution_2d_without_col_cache(monkeypatch):
    import sys
    mod = sys.modules['minichainer.functions.connection.convolution_engine']
    rng = numpy.random.RandomState(7)
    x = rng.randn(2, 3, 5, 5)
    W = rng.randn(4, 3, 3, 3)
    gy = rng.randn(2, 4, 3, 3)

    def grads():
        xv, Wv = minichainer.Variable(x), minichainer.Variable(W)
        y = F.convolution_2d(xv, Wv, stride=2, pad=1)
        y.grad = gy
        y.backward()
        return xv.grad, Wv.grad

    cached = grads()
    monkeypatch.setattr(mod, 'COL_CACHE_MAX_BYTES', 0)
    recomputed = grads()
    for a, b in zip(cached, recomputed):
        numpy.testing.assert_allclose(a, b, rtol=1e-12)
    xnd = rng.randn(1, 2, 4)
    gradient_check.check_backward(lambda x, W: F.convolution_nd(x, W, pad=1),
                                  (xnd, rng.randn(3, 2, 3)), rng.randn(1, 3, 4),
                                  atol=1e-7, rtol=1e-6)


@pytest.mark.parametrize('stride', [1, 2])
def test_local_convolution_2d(stride):
    rng = numpy.random.RandomState(8)
    x = rng.randn(2, 3, 5, 5)
    oh = (5 - 3) // stride + 1
    W = rng.randn(4, oh, oh, 3, 3, 3)
    b = rng.randn(4, oh, oh)
    y = F.local_convolution_2d(x, W, b, stride)
    ref = numpy.empty((2, 4, oh, oh))
    for i in range(oh):
        for j in range(oh):
            patch = x[:, :, i * stride:i * stride + 3, j * stride:j * stride + 3]
            ref[:, :, i, j] = numpy.tensordot(patch, W[:, i, j], ([1, 2, 3], [1, 2, 3]))
    numpy.testing.assert_allclose(y.array, ref + b, rtol=1e-10, atol=1e-12)
    f = (lambda x, W, b: F.local_convolution_2d(x, W, b, stride))
    gradient_check.check_backward(f, (x, W, b), rng.randn(*y.shape), atol=1e-7, rtol=1e-6)
    with pytest.raises(type_check.InvalidType):
        F.local_convolution_2d(x, W[:, :, :, :2])


def test_local_convolution_2d_output_keeps_the_input_dtype():
    # W wider than x (float64 filters on float32 data): y and its gradients keep the
    # dtypes of their sources, and the bias (x's dtype) can be added.
    rng = numpy.random.RandomState(9)
    x = rng.randn(2, 3, 4, 4).astype(numpy.float32)
    W = rng.randn(2, 2, 2, 3, 3, 3)
    b = rng.randn(2, 2, 2).astype(numpy.float32)
    xv, Wv = minichainer.Variable(x), minichainer.Variable(W)
    y = F.local_convolution_2d(xv, Wv, b)
    assert y.dtype == numpy.float32
    ref = F.local_convolution_2d(x.astype(numpy.float64), W, b.astype(numpy.float64))
    numpy.testing.assert_allclose(y.array, ref.array, rtol=1e-5, atol=1e-5)
    y.grad = numpy.ones_like(y.array)
    y.backward()
    assert xv.grad.dtype == numpy.float32 and Wv.grad.dtype == numpy.float64
