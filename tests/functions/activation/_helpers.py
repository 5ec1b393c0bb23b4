"""Shared helpers for the activation tests: inputs away from kinks, tolerances, checks."""
import numpy

import minichainer
from minichainer import gradient_check

FLOAT_DTYPES = (numpy.float16, numpy.float32, numpy.float64)


def fwd_tol(dtype):
    if dtype == numpy.float16:
        return {'atol': 5e-3, 'rtol': 5e-3}
    if dtype == numpy.float32:
        return {'atol': 1e-6, 'rtol': 1e-5}
    return {'atol': 1e-12, 'rtol': 1e-10}


def bwd_opts(dtype):
    """check_backward options: float16 is checked in float64 with looser tolerances."""
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 5e-2, 'rtol': 5e-2}
    if dtype == numpy.float32:
        return {'atol': 1e-3, 'rtol': 1e-3}
    return {'atol': 1e-7, 'rtol': 1e-7}


def uniform(shape, dtype, low=-1., high=1., kinks=(), margin=0.1, seed=0):
    """Random array in [low, high) with no element within ``margin`` of a kink."""
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(low, high, shape)
    for k in kinks:
        near = numpy.abs(x - k) < margin
        x[near] = k + numpy.where(x[near] >= k, margin, -margin) * 2
    return x.astype(dtype)


def check_unary(func, ref, dtype, shape=(3, 4), kinks=(0.,), low=-1., high=1.,
                double=True, seed=0):
    """Forward against ``ref`` (numpy, float64) and first/second-order gradient checks."""
    x = uniform(shape, dtype, low, high, kinks, seed=seed)
    y = func(x)
    assert isinstance(y, minichainer.Variable)
    assert y.dtype == dtype
    assert y.shape == ref(x.astype(numpy.float64)).shape
    numpy.testing.assert_allclose(
        y.array.astype(numpy.float64), ref(x.astype(numpy.float64)), **fwd_tol(dtype))

    rng = numpy.random.RandomState(seed + 1)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    gradient_check.check_backward(func, x, gy, **bwd_opts(dtype))
    if double:
        ggx = rng.uniform(-1, 1, x.shape).astype(dtype)
        gradient_check.check_double_backward(func, x, gy, ggx, **bwd_opts(dtype))
