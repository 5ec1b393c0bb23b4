"""Shared gradient-check helper for the array function tests."""
import numpy
import pytest

from minichainer import gradient_check


def _tolerance(dtype):
    if numpy.dtype(dtype) == numpy.float16:
        return {'atol': 1e-3, 'rtol': 1e-2}
    return {}


def _check_grads(f, xs, gys, ggxs, dtype, double=True, **options):
    """Run ``check_backward`` and ``check_double_backward`` of ``f`` at ``xs``.

    The numerical derivative is taken in float64; float16 gets looser tolerances
    (the analytic gradient is computed in float16).
    """
    kw = dict(_tolerance(dtype), dtype=numpy.float64)
    kw.update(options)
    gradient_check.check_backward(f, xs, gys, **kw)
    if double:
        gradient_check.check_double_backward(f, xs, gys, ggxs, **kw)


@pytest.fixture
def check_grads():
    return _check_grads
