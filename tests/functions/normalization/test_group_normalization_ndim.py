import warnings

import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _reference(x, groups, gamma, beta, eps):
    b, c = x.shape[:2]
    g = x.reshape(b, groups, -1)
    y = (g - g.mean(axis=2, keepdims=True)) / numpy.sqrt(g.var(axis=2, keepdims=True) + eps)
    shape = (1, c) + (1,) * (x.ndim - 2)
    return y.reshape(x.shape) * gamma.reshape(shape) + beta.reshape(shape)


def test_two_dimensional_input_as_chainer():
    # Chainer accepts (batch, channels): x.ndim >= 2.
    rng = numpy.random.RandomState(0)
    x = rng.randn(3, 4)
    gamma, beta = rng.randn(4), rng.randn(4)
    y = F.group_normalization(x, 2, gamma, beta, eps=1e-5)
    numpy.testing.assert_allclose(y.array, _reference(x, 2, gamma, beta, 1e-5), rtol=1e-6)
    gradient_check.check_backward(lambda x, g, b: F.group_normalization(x, 2, g, b),
                                  (x, gamma, beta), rng.randn(3, 4), atol=1e-6, rtol=1e-5)


def test_one_element_per_group_does_not_warn():
    x = numpy.arange(3, dtype=numpy.float32).reshape(1, 3)
    gamma = numpy.ones(3, numpy.float32)
    beta = numpy.array([1, 2, 3], numpy.float32)
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        y = F.group_normalization(x, 3, gamma, beta)
    numpy.testing.assert_allclose(y.array, [[1, 2, 3]])


def test_one_dimensional_input_is_rejected():
    with pytest.raises(type_check.InvalidType):
        F.group_normalization(numpy.ones(4, numpy.float32), 2,
                              numpy.ones(4, numpy.float32), numpy.zeros(4, numpy.float32))


def _chainer_rounding_reference(x, groups, gamma, beta, gy, eps):
    """Chainer 7's GroupNormalization on the CPU, step for step: the forward's row
    statistics and scale/shift, the backward's x_hat, (gy * gamma), its row means."""
    interm = numpy.promote_types(x.dtype, gamma.dtype)
    n, c = x.shape[:2]
    rows = x.reshape(n * groups, -1)
    mean = rows.mean(axis=1, dtype=interm)
    d = rows - mean[:, None]
    var = (d * d).mean(axis=1) + interm.type(eps)
    inv_std = numpy.reciprocal(numpy.sqrt(var))
    x_hat = d * inv_std[:, None]
    g32, b32 = gamma.astype(interm), beta.astype(interm)
    y = (x_hat.reshape(n, c, -1) * g32[:, None] + b32[:, None]).reshape(x.shape)
    gy3 = gy.astype(interm).reshape(n, c, -1)
    x_hat2 = (rows - mean[:, None]) * inv_std[:, None]
    gbeta = gy3.sum(axis=(0, 2))
    ggamma = (gy3 * x_hat2.reshape(n, c, -1)).sum(axis=(0, 2))
    g = (gy3 * g32[:, None]).reshape(rows.shape)
    gx = inv_std[:, None] * (g - g.mean(axis=1, keepdims=True)
                             - x_hat2 * (g * x_hat2).mean(axis=1, keepdims=True))
    return (y.astype(x.dtype), gx.reshape(x.shape).astype(x.dtype),
            ggamma.astype(gamma.dtype), gbeta.astype(gamma.dtype))


@pytest.mark.parametrize('x_dtype, p_dtype', [
    (numpy.float32, numpy.float32), (numpy.float64, numpy.float64),
    (numpy.float16, numpy.float32)])                         # mixed16
def test_bit_for_bit_chainers_rounding(x_dtype, p_dtype):
    rng = numpy.random.RandomState(21)
    x = (rng.randn(3, 6, 4, 5) * 2 + 1).astype(x_dtype)
    gamma = rng.uniform(.5, 1.5, 6).astype(p_dtype)
    beta = rng.randn(6).astype(p_dtype)
    gy = rng.randn(*x.shape).astype(x_dtype)
    xv, gv, bv = (minichainer.Variable(a) for a in (x, gamma, beta))
    y = F.group_normalization(xv, 3, gv, bv, eps=1e-4)
    y.grad = gy
    y.backward()
    expect = _chainer_rounding_reference(x, 3, gamma, beta, gy, 1e-4)
    for got, want in zip((y.array, xv.grad, gv.grad, bv.grad), expect):
        assert got.dtype == want.dtype
        numpy.testing.assert_array_equal(got, want)


def test_double_backward():
    rng = numpy.random.RandomState(22)
    x, gy, ggx = rng.randn(3, 2, 4, 3, 3)
    gamma, beta = rng.uniform(.5, 1.5, 4), rng.randn(4)
    ggg, ggb = rng.randn(2, 4)
    gradient_check.check_double_backward(
        lambda x, g, b: F.group_normalization(x, 2, g, b), (x, gamma, beta), gy,
        (ggx, ggg, ggb), atol=1e-5, rtol=1e-4)
