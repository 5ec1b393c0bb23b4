"""Shared helpers for the tests of minichainer.functions.math (not a package: a
package named ``math`` here would shadow the standard library)."""
import numpy
import pytest

import minichainer
from minichainer import gradient_check

FLOAT_DTYPES = (numpy.float16, numpy.float32, numpy.float64)

try:
    import scipy.special  # noqa: F401
    HAS_SCIPY = True
except ImportError:
    HAS_SCIPY = False
needs_scipy = pytest.mark.skipif(not HAS_SCIPY, reason='needs SciPy (as in Chainer)')


def scipy_param(*values):
    """A parametrize entry for a function that needs SciPy on the CPU."""
    return pytest.param(*values, marks=needs_scipy)


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
    return {'atol': 1e-6, 'rtol': 1e-5}


def uniform(shape, dtype, low=-1., high=1., seed=0):
    rng = numpy.random.RandomState(seed)
    return rng.uniform(low, high, shape).astype(dtype)


def check_forward(func, ref, inputs, dtype, out_dtype=None):
    """Run ``func`` on ``inputs`` and compare with ``ref`` computed in float64."""
    y = func(*inputs)
    assert isinstance(y, minichainer.Variable)
    expect = numpy.asarray(ref(*[x.astype(numpy.float64) for x in inputs]))
    assert y.dtype == (dtype if out_dtype is None else out_dtype)
    assert y.shape == expect.shape, (y.shape, expect.shape)
    numpy.testing.assert_allclose(
        y.array.astype(numpy.float64), expect, **fwd_tol(dtype))
    return y


def check_grads(func, inputs, dtype, double=True, seed=1, **opts):
    """First- and (optionally) second-order numerical gradient checks."""
    inputs = tuple(inputs)
    y = func(*inputs)
    rng = numpy.random.RandomState(seed)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    kw = bwd_opts(dtype)
    kw.update(opts)
    gradient_check.check_backward(func, inputs, gy, **kw)
    if double:
        ggx = tuple(rng.uniform(-1, 1, x.shape).astype(dtype) for x in inputs)
        gradient_check.check_double_backward(func, inputs, gy, ggx, **kw)


def check_op(func, ref, inputs, dtype, double=True, **opts):
    check_forward(func, ref, inputs, dtype)
    check_grads(func, inputs, dtype, double=double, **opts)
