"""Gradients computed without double backprop (fused NumPy path, see
``minichainer/functions/_fast.py``) equal those of the differentiable path."""
import numpy
import pytest

import minichainer
import minichainer.functions as F

from _math_helpers import scipy_param

POS = numpy.random.RandomState(0).uniform(0.2, 0.9, (3, 4))
SIGNED = numpy.random.RandomState(1).uniform(-0.9, 0.9, (3, 4))
SQUARE = numpy.eye(3) * 2 + numpy.random.RandomState(2).uniform(-.3, .3, (3, 3))

CASES = [
    (F.exp, SIGNED), (F.log, POS), (F.log2, POS), (F.log10, POS), (F.expm1, SIGNED),
    (F.log1p, POS), (F.sqrt, POS), (F.sin, SIGNED), (F.cos, SIGNED), (F.tan, SIGNED),
    (F.arcsin, SIGNED), (F.arccos, SIGNED), (F.arctan, SIGNED), (F.sinh, SIGNED),
    (F.cosh, SIGNED), (F.arctanh, SIGNED), (F.erf, SIGNED), (F.erfc, SIGNED),
    scipy_param(F.erfcx, SIGNED), scipy_param(F.erfinv, SIGNED),
    scipy_param(F.erfcinv, POS), (F.ndtr, SIGNED),
    scipy_param(F.log_ndtr, SIGNED), scipy_param(F.ndtri, POS),
    (lambda x: F.max(x, axis=1), SIGNED), (lambda x: F.min(x), SIGNED),
    (lambda x: F.mean(x, axis=0), SIGNED), (lambda x: F.mean(x, axis=1, keepdims=True), SIGNED),
    (lambda x: F.prod(x, axis=(0, 1)), SIGNED), (lambda x: F.prod(x, axis=1), SIGNED),
    (lambda x: F.cumsum(x, axis=1), SIGNED), (lambda x: F.cumsum(x), SIGNED),
    (lambda x: F.cumprod(x, axis=0), SIGNED), (lambda x: F.logsumexp(x, axis=1), SIGNED),
    (lambda x: F.clip(x, -0.5, 0.5), SIGNED), (lambda x: F.maximum(x, x[0] * 0.3), SIGNED),
    (lambda x: F.minimum(x, x * 0.5), SIGNED),
    (lambda x: F.squared_difference(x, x * x), SIGNED),
    (lambda x: F.linear_interpolate(x, x * x, x + 1), SIGNED),
    (lambda x: F.fmod(x, x * 0.3 + 1.1), SIGNED), (lambda x: F.arctan2(x, x + 2), SIGNED),
    (F.batch_l2_norm_squared, SIGNED), (F.inv, SQUARE), (F.det, SQUARE),
    (lambda x: F.batch_inv(F.reshape(x, (1, 3, 3))), SQUARE),
]


@pytest.mark.parametrize('func,x', CASES)
def test_same_gradient_with_and_without_double_backprop(func, x):
    grads = []
    for double in (False, True):
        v = minichainer.Variable(x.copy())
        y = func(v)
        y.grad = numpy.linspace(-1, 1, y.size).reshape(y.shape)
        y.backward(enable_double_backprop=double)
        grads.append(v.grad)
    numpy.testing.assert_allclose(grads[0], grads[1], rtol=1e-12, atol=1e-12)


UNARY_0D = [
    (F.exp, 0.3), (F.log, 0.7), (F.log2, 0.7), (F.log10, 0.7), (F.expm1, 0.3),
    (F.log1p, 0.3), (F.sqrt, 0.7), (F.rsqrt, 0.7), (F.sin, 0.3), (F.cos, 0.3),
    (F.tan, 0.3), (F.arcsin, 0.3), (F.arccos, 0.3), (F.arctan, 0.3), (F.sinh, 0.3),
    (F.cosh, 0.3), (F.arctanh, 0.3), (F.erf, 0.3), (F.erfc, 0.3),
    scipy_param(F.erfcx, 0.3), scipy_param(F.erfinv, 0.3), scipy_param(F.erfcinv, 0.7),
    (F.ndtr, 0.3), scipy_param(F.log_ndtr, 0.3), scipy_param(F.ndtri, 0.7),
    (F.max, 0.3), (F.min, 0.3), (F.mean, 0.3), (F.prod, 0.3), (F.logsumexp, 0.3),
    (lambda x: F.clip(x, -1., 1.), 0.3), (lambda x: F.maximum(x, x * 0.5), 0.3),
    (lambda x: F.squared_difference(x, x * x), 0.3), (lambda x: F.fmod(x, x + 1), 0.3),
    (lambda x: F.linear_interpolate(x, x * x, x + 1), 0.3),
    (lambda x: F.arctan2(x, x + 1), 0.3),
]


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('func,value', UNARY_0D)
def test_zero_dim_input(func, value, dtype):
    from minichainer import gradient_check
    x = numpy.array(value, dtype)
    gy = numpy.array(0.7, dtype)
    y = func(minichainer.Variable(x))
    assert y.shape == () and isinstance(y.array, numpy.ndarray)
    opts = {'atol': 1e-3, 'rtol': 1e-3} if dtype == numpy.float32 else {}
    gradient_check.check_backward(func, x, gy, **opts)
    gradient_check.check_double_backward(func, x, gy, numpy.array(0.4, dtype), **opts)
