"""Special functions on NumPy arrays, backed by SciPy.

As in Chainer 7.8.1: `erf`, `erfc` and `ndtr` fall back to a (slower)
elementwise `math.erf`/`math.erfc` when SciPy is missing, with a
PerformanceWarning; the others (`erfcx`, `erfinv`, `erfcinv`,
`log_ndtr`, `ndtri`) raise ImportError without SciPy.
"""
import math
import warnings

import numpy

from minichainer.functions.math._scipy import _scipy_special
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


def erf(x):
    sp = _scipy_or_none()
    if sp is not None:
        return sp.erf(x)
    _warn_slow('erf')
    return _v_erf(numpy.asarray(x, numpy.float64))


def erfc(x):
    sp = _scipy_or_none()
    if sp is not None:
        return sp.erfc(x)
    _warn_slow('erfc')
    return _v_erfc(numpy.asarray(x, numpy.float64))


def ndtr(x):
    sp = _scipy_or_none()
    if sp is not None:
        return sp.ndtr(x)
    _warn_slow('ndtr')
    return 0.5 * _v_erfc(-numpy.asarray(x, numpy.float64) / _SQRT2)


def erfcx(x):
    return _scipy_special('erfcx').erfcx(x)


def erfinv(x):
    return _scipy_special('erfinv').erfinv(x)


def erfcinv(x):
    return _scipy_special('erfcinv').erfcinv(x)


def log_ndtr(x):
    return _scipy_special('log_ndtr').log_ndtr(x)


def ndtri(x):
    return _scipy_special('ndtri').ndtri(x)
