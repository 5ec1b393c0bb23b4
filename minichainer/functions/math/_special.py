"""Special functions on NumPy arrays, backed by SciPy (on CuPy arrays by
`cupyx.scipy.special`).

As in Chainer 7.8.1: `erf`, `erfc` and `ndtr` fall back to a (slower)
elementwise `math.erf`/`math.erfc` when SciPy is missing, with a
PerformanceWarning; the others (`erfcx`, `erfinv`, `erfcinv`,
`log_ndtr`, `ndtri`) raise ImportError without SciPy.
"""
import math
import warnings

import numpy

from minichainer.functions.math._scipy import special_for
from minichainer.warnings import PerformanceWarning

_SQRT2 = math.sqrt(2.0)
_warned = set()


def _scipy_or_none():
    try:
        from scipy import special
    except ImportError:
        return None
    return special


def _warn_slow(fname):
    if fname in _warned:
        return
    _warned.add(fname)
    warnings.warn('SciPy is not available. Forward computation of {} on the CPU can be '
                  'slow without SciPy (pip install scipy).'.format(fname), PerformanceWarning)


_v_erf = numpy.vectorize(math.erf, otypes=[numpy.float64])
_v_erfc = numpy.vectorize(math.erfc, otypes=[numpy.float64])


def _on_device(x):
    return not isinstance(x, numpy.ndarray) and not numpy.isscalar(x)


def _scipy_or_fallback(name, fallback, x):
    """`scipy.special.<name>(x)`, or (with a one-time warning) `fallback` on
    `x` as a float64 array when SciPy is missing; `cupyx.scipy.special.<name>(x)`
    for a CuPy array."""
    if _on_device(x):
        return getattr(special_for(x, name), name)(x)
    sp = _scipy_or_none()
    if sp is not None:
        return getattr(sp, name)(x)
    _warn_slow(name)
    return fallback(numpy.asarray(x, numpy.float64))


def _ndtr_fallback(x):
    return 0.5 * _v_erfc(-x / _SQRT2)


def erf(x):
    return _scipy_or_fallback('erf', _v_erf, x)


def erfc(x):
    return _scipy_or_fallback('erfc', _v_erfc, x)


def ndtr(x):
    return _scipy_or_fallback('ndtr', _ndtr_fallback, x)


def erfcx(x):
    return special_for(x, 'erfcx').erfcx(x)


def erfinv(x):
    return special_for(x, 'erfinv').erfinv(x)


def erfcinv(x):
    return special_for(x, 'erfcinv').erfcinv(x)


def log_ndtr(x):
    return special_for(x, 'log_ndtr').log_ndtr(x)


def ndtri(x):
    return special_for(x, 'ndtri').ndtri(x)
