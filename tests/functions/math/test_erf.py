"""Tests of erf, erfc, erfcx, erfinv, erfcinv (one module each in the package) and
of the NumPy fallbacks used when SciPy is missing."""
import math
import sys

import numpy
import pytest

import minichainer.functions as F
from minichainer.functions.math import _special
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, scipy_param, uniform

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
    scipy_param(F.erfcx, lambda x: numpy.exp(x * x) * _v(math.erfc)(x), -1., 2.),
    scipy_param(F.erfinv, _ref_erfinv, -0.9, 0.9),
    scipy_param(F.erfcinv, lambda x: _ref_erfinv(1 - x), 0.1, 1.9),
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
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    monkeypatch.setattr(_special, '_warned', set())


@pytest.mark.parametrize('func,ref', [
    (F.erf, numpy.vectorize(math.erf)), (F.erfc, numpy.vectorize(math.erfc)),
    (F.ndtr, lambda x: 0.5 * numpy.vectorize(math.erfc)(-x / math.sqrt(2)))])
def test_slow_fallback_without_scipy(no_scipy, func, ref):
    # as Chainer: erf, erfc and ndtr still work (elementwise math), with a warning
    x = numpy.linspace(-3, 3, 7).astype(numpy.float32)
    with pytest.warns(RuntimeWarning, match='SciPy'):
        y = func(x)
    numpy.testing.assert_allclose(y.array, ref(x.astype(numpy.float64)), rtol=1e-6)


@pytest.mark.parametrize('name', ['erfcx', 'erfinv', 'erfcinv', 'log_ndtr', 'ndtri'])
def test_import_error_without_scipy(no_scipy, name):
    # as Chainer: these need SciPy on the CPU
    with pytest.raises(ImportError, match=name):
        getattr(F, name)(numpy.full((2,), 0.5, numpy.float32))
