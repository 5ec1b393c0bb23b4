"""Special functions on NumPy arrays: SciPy's when installed, NumPy fallbacks otherwise.

SciPy is optional; every function here works without it (more slowly, via
``math.erf``/``math.erfc`` elementwise plus Newton refinement for the inverses).
"""
import math

import numpy

_SQRT_PI = math.sqrt(math.pi)
_SQRT2 = math.sqrt(2.0)
_scipy_special = None
_scipy_checked = False


def _scipy():
    global _scipy_special, _scipy_checked
    if not _scipy_checked:
        _scipy_checked = True
        try:
            from scipy import special
        except ImportError:
            special = None
        _scipy_special = special
    return _scipy_special


_v_erf = numpy.vectorize(math.erf, otypes=[numpy.float64])
_v_erfc = numpy.vectorize(math.erfc, otypes=[numpy.float64])


def _as64(x):
    return numpy.asarray(x, dtype=numpy.float64)


def erf(x):
    sp = _scipy()
    if sp is not None:
        return sp.erf(x)
    return _v_erf(_as64(x))


def erfc(x):
    sp = _scipy()
    if sp is not None:
        return sp.erfc(x)
    return _v_erfc(_as64(x))


def erfcx(x):
    sp = _scipy()
    if sp is not None:
        return sp.erfcx(x)
    x = _as64(x)
    out = numpy.empty_like(x)
    small = x < 25.0
    xs = x[small]
    with numpy.errstate(over='ignore', invalid='ignore'):
        out[small] = numpy.exp(xs * xs) * _v_erfc(xs)
    xl = x[~small]
    # asymptotic expansion: erfcx(x) ~ 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(4x^4))
    inv2 = 1.0 / (2.0 * xl * xl)
    out[~small] = (1.0 - inv2 + 3.0 * inv2 * inv2) / (xl * _SQRT_PI)
    return out


def _erfinv_initial(x):
    # Giles (2010) single-precision approximation of erfinv
    w = -numpy.log((1.0 - x) * (1.0 + x))
    small = w < 5.0
    ws = w - 2.5
    p1 = 2.81022636e-08
    for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087,
              -0.00125372503, -0.00417768164, 0.246640727, 1.50140941):
        p1 = c + p1 * ws
    wl = numpy.sqrt(numpy.maximum(w, 5.0)) - 3.0
    p2 = -0.000200214257
    for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773,
              -0.0076224613, 0.00943887047, 1.00167406, 2.83297682):
        p2 = c + p2 * wl
    return numpy.where(small, p1, p2) * x


def erfinv(x):
    sp = _scipy()
    if sp is not None:
        return sp.erfinv(x)
    x = _as64(x)
    with numpy.errstate(divide='ignore', invalid='ignore', over='ignore'):
        y = _erfinv_initial(x)
        finite = numpy.abs(x) < 1
        for _ in range(3):
            yf = numpy.where(finite, y, 0.0)
            step = (_v_erf(yf) - x) / (2.0 / _SQRT_PI * numpy.exp(-yf * yf))
            y = numpy.where(finite, yf - step, y)
        y = numpy.where(x == 1, numpy.inf, y)
        y = numpy.where(x == -1, -numpy.inf, y)
        y = numpy.where(numpy.abs(x) > 1, numpy.nan, y)
    return y


def erfcinv(x):
    sp = _scipy()
    if sp is not None:
        return sp.erfcinv(x)
    x = _as64(x)
    with numpy.errstate(divide='ignore', invalid='ignore', over='ignore'):
        y = erfinv(1.0 - x)
        finite = (x > 0) & (x < 2)
        for _ in range(2):
            yf = numpy.where(finite, y, 0.0)
            step = (_v_erfc(yf) - x) / (-2.0 / _SQRT_PI * numpy.exp(-yf * yf))
            y = numpy.where(finite, yf - step, y)
    return y


def ndtr(x):
    sp = _scipy()
    if sp is not None:
        return sp.ndtr(x)
    return 0.5 * _v_erfc(-_as64(x) / _SQRT2)


def log_ndtr(x):
    sp = _scipy()
    if sp is not None:
        return sp.log_ndtr(x)
    x = _as64(x)
    with numpy.errstate(divide='ignore'):
        neg = numpy.log(0.5 * erfcx(-x / _SQRT2)) - 0.5 * x * x
        pos = numpy.log1p(-0.5 * _v_erfc(x / _SQRT2))
    return numpy.where(x < 0, neg, pos)


def ndtri(x):
    sp = _scipy()
    if sp is not None:
        return sp.ndtri(x)
    return -_SQRT2 * erfcinv(2.0 * _as64(x))
