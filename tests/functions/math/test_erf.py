"""Tests of erf, erfc, erfcx, erfinv, erfcinv (one module each in the package) and
of the NumPy fallbacks used when SciPy is missing."""
import math

import numpy
import pytest

import minichainer.functions as F
from minichainer.functions.math import _special
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform

_v = numpy.vectorize


def _ref_erfinv(x):
    # bisection on math.erf, independent of the implementation under test
    def one(v):
        lo, hi = -6., 6.
        for _ in range(200):
            mid = (lo + hi) / 2
            if math.erf(mid) < v:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    return _v(one)(x)


CASES = [
    (F.erf, _v(math.erf), -2., 2.),
    (F.erfc, _v(math.erfc), -2., 2.),
    (F.erfcx, lambda x: numpy.exp(x * x) * _v(math.erfc)(x), -1., 2.),
    (F.erfinv, _ref_erfinv, -0.9, 0.9),
    (F.erfcinv, lambda x: _ref_erfinv(1 - x), 0.1, 1.9),
]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('func,ref,low,high', CASES)
def test_forward_backward(func, ref, low, high, dtype):
    check_op(func, ref, (uniform((3, 2), dtype, low, high),), dtype)


@pytest.mark.parametrize('func', [F.erf, F.erfc, F.erfcx, F.erfinv, F.erfcinv])
def test_rejects_int(func):
    with pytest.raises(type_check.InvalidType):
        func(numpy.arange(3))


@pytest.fixture
def no_scipy(monkeypatch):
    monkeypatch.setattr(_special, '_scipy_checked', True)
    monkeypatch.setattr(_special, '_scipy_special', None)


@pytest.mark.parametrize('name,low,high', [
    ('erf', -3, 3), ('erfc', -3, 3), ('erfcx', -30, 40), ('erfinv', -0.999, 0.999),
    ('erfcinv', 1e-6, 1.999), ('ndtr', -5, 5), ('log_ndtr', -40, 8),
    ('ndtri', 1e-8, 1 - 1e-8)])
def test_numpy_fallbacks_match_scipy(no_scipy, name, low, high):
    special = pytest.importorskip('scipy.special')
    x = numpy.linspace(low, high, 301)
    numpy.testing.assert_allclose(getattr(_special, name)(x), getattr(special, name)(x),
                                  rtol=1e-8, atol=1e-12)


def test_fallback_erfinv_edges(no_scipy):
    with numpy.errstate(all='ignore'):
        y = _special.erfinv(numpy.array([-1., 1., 1.5, 0.]))
    assert y[0] == -numpy.inf and y[1] == numpy.inf and numpy.isnan(y[2]) and y[3] == 0


def test_function_works_without_scipy(no_scipy):
    y = F.erf(numpy.array([0.5], numpy.float32))
    numpy.testing.assert_allclose(y.array, [math.erf(0.5)], rtol=1e-6)
