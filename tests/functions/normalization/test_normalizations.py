import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _gc(dtype):
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 1e-2, 'rtol': 1e-1}
    if dtype == numpy.float32:
        return {'atol': 1e-3, 'rtol': 1e-2}
    return {'atol': 1e-6, 'rtol': 1e-5}


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_layer_normalization(dtype):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (3, 5)).astype(dtype)
    g = rng.uniform(0.5, 1.5, 5).astype(dtype)
    b = rng.uniform(-1, 1, 5).astype(dtype)
    y = F.layer_normalization(x, g, b)
    xd = x.astype('d')
    ref = (xd - xd.mean(1, keepdims=True)) / numpy.sqrt(xd.var(1, keepdims=True) + 1e-5) * g + b
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float16 else {'atol': 1e-5, 'rtol': 1e-4}
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, ref, **tol)
    gy = rng.uniform(-1, 1, x.shape).astype(dtype)
    gradient_check.check_backward(F.layer_normalization, (x, g, b), gy, **_gc(dtype))
    if dtype == numpy.float64:
        gg = tuple(rng.uniform(-1, 1, a.shape) for a in (x, g, b))
        gradient_check.check_double_backward(F.layer_normalization, (x, g, b), gy, gg,
                                             **_gc(dtype))
    with pytest.raises(type_check.InvalidType):
        F.layer_normalization(x, g[:3], b[:3])


@pytest.mark.parametrize('shape,groups', [((2, 4, 3), 2), ((2, 6, 2, 2), 3)])
def test_group_normalization(shape, groups):
    rng = numpy.random.RandomState(1)
    x = rng.randn(*shape)
    c = shape[1]
    g = rng.uniform(0.5, 1.5, c)
    b = rng.randn(c)
    y = F.group_normalization(x, groups, g, b)
    xg = x.reshape(shape[0], groups, -1)
    ref = ((xg - xg.mean(2, keepdims=True)) / numpy.sqrt(xg.var(2, keepdims=True) + 1e-5))
    ref = ref.reshape(shape) * g.reshape((1, c) + (1,) * (len(shape) - 2)) \
        + b.reshape((1, c) + (1,) * (len(shape) - 2))
    numpy.testing.assert_allclose(y.array, ref, rtol=1e-6, atol=1e-8)
    gy = rng.randn(*shape)
    f = (lambda x, g, b: F.group_normalization(x, groups, g, b))
    gradient_check.check_backward(f, (x, g, b), gy, atol=1e-6, rtol=1e-5)
    with pytest.raises(ValueError):
        F.group_normalization(x, 5, g, b)
    with pytest.raises(type_check.InvalidType):
        F.group_normalization(x, groups, g[:-1], b)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('axis', [1, (1, 2)])
def test_normalize(dtype, axis):
    rng = numpy.random.RandomState(2)
    x = rng.uniform(-1, 1, (3, 4, 2)).astype(dtype)
    if dtype != numpy.float16:  # 1 / eps overflows float16
        x[0] = 0
    y = F.normalize(x, axis=axis)
    xd = x.astype('d')
    ref = xd / (numpy.sqrt((xd ** 2).sum(axis=axis, keepdims=True)) + 1e-5)
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float16 else {'rtol': 1e-5}
    numpy.testing.assert_allclose(y.array, ref, **tol)
    x = x[1:]  # the norm is not differentiable at the zero vector
    gy = rng.uniform(-1, 1, x.shape).astype(dtype)
    f = (lambda x: F.normalize(x, axis=axis))
    gradient_check.check_backward(f, (x,), gy, **_gc(dtype))
    if dtype == numpy.float64:
        gradient_check.check_double_backward(f, (x,), gy, (rng.uniform(-1, 1, x.shape),),
                                             **_gc(dtype))


def test_normalize_zero_vector_grad_finite():
    x = minichainer.Variable(numpy.zeros((2, 3)))
    y = F.normalize(x)
    y.grad = numpy.ones((2, 3))
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.ones((2, 3)) / 1e-5)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_local_response_normalization(dtype):
    rng = numpy.random.RandomState(3)
    x = rng.uniform(-1, 1, (2, 7, 2, 3)).astype(dtype)
    n, k, alpha, beta = 3, 1.5, 0.1, 0.75
    y = F.local_response_normalization(x, n, k, alpha, beta)
    xd = x.astype('d')
    ref = numpy.empty_like(xd)
    for c in range(7):
        lo, hi = max(0, c - n // 2), min(7, c + n // 2 + 1)
        ref[:, c] = xd[:, c] / (k + alpha * (xd[:, lo:hi] ** 2).sum(1)) ** beta
    numpy.testing.assert_allclose(y.array, ref, rtol=1e-5)
    gy = rng.uniform(-1, 1, x.shape).astype(dtype)
    f = (lambda x: F.local_response_normalization(x, n, k, alpha, beta))
    gradient_check.check_backward(f, (x,), gy, **_gc(dtype))
    if dtype == numpy.float64:
        gradient_check.check_double_backward(f, (x,), gy, (rng.uniform(-1, 1, x.shape),),
                                             **_gc(dtype))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_layer_normalization_forward_bit_for_bit_chainers_rounding(dtype):
    # Chainer 7: mu = mean(x); x_mu = x - mu; var = mean(square(x_mu));
    # inv_std = 1 / sqrt(var + eps); y = x_mu * inv_std * gamma + beta
    rng = numpy.random.RandomState(23)
    x = (rng.randn(7, 33) * 3 + 1).astype(dtype)
    gamma = rng.uniform(.5, 1.5, 33).astype(dtype)
    beta = rng.randn(33).astype(dtype)
    mu = numpy.mean(x, axis=1, keepdims=True)
    x_mu = x - mu
    var = numpy.mean(numpy.square(x_mu), axis=1, keepdims=True)
    inv_std = 1. / numpy.sqrt(var + 1e-5)
    expect = x_mu * inv_std * gamma[None] + beta[None]
    y = F.layer_normalization(x, gamma, beta)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expect)
