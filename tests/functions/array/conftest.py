"""Shared gradient-check helper for the array function tests."""
import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check


def _tolerance(dtype):
    if numpy.dtype(dtype) == numpy.float16:
        return {'atol': 1e-3, 'rtol': 1e-2}
    return {}


def _as_tuple(x):
    return tuple(x) if isinstance(x, (list, tuple)) else (x,)


def _check_grads(f, xs, gys, ggxs, dtype, double=True, **options):
    """Run ``check_backward`` and ``check_double_backward`` of ``f`` at ``xs``.

    0-d inputs/outputs are passed to the checkers as shape ``(1,)`` and reshaped around
    ``f``, so that the checks also cover scalars. Float16 gets looser tolerances; the
    numerical derivative is taken in float64.
    """
    xs, gys, ggxs = _as_tuple(xs), _as_tuple(gys), _as_tuple(ggxs)
    x_shapes = [x.shape for x in xs]
    y_scalar = [g.ndim == 0 for g in gys]

    def wrapped(*vs):
        vs = [F.reshape(v, ()) if s == () else v for v, s in zip(vs, x_shapes)]
        ys = _as_tuple(f(*vs))
        return tuple(F.reshape(y, (1,)) if s else y for y, s in zip(ys, y_scalar))

    def lift(arrays):
        return tuple(a.reshape(1) if a.ndim == 0 else a for a in arrays)

    kw = dict(_tolerance(dtype), dtype=numpy.float64)
    kw.update(options)
    gradient_check.check_backward(wrapped, lift(xs), lift(gys), **kw)
    if double:
        gradient_check.check_double_backward(wrapped, lift(xs), lift(gys), lift(ggxs), **kw)


@pytest.fixture
def check_grads():
    return _check_grads
