"""Tests of ndtr, log_ndtr and ndtri."""
import math

import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, needs_scipy, scipy_param, uniform


def _ref_ndtr(x):
    return 0.5 * numpy.vectorize(math.erfc)(-x / math.sqrt(2))


def _ref_ndtri(p):
    def one(v):
        lo, hi = -10., 10.
        for _ in range(200):
            mid = (lo + hi) / 2
            if 0.5 * math.erfc(-mid / math.sqrt(2)) < v:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2
    return numpy.vectorize(one)(p)


CASES = [
    (F.ndtr, _ref_ndtr, -2., 2.),
    scipy_param(F.log_ndtr, lambda x: numpy.log(_ref_ndtr(x)), -3., 3.),
    scipy_param(F.ndtri, _ref_ndtri, 0.1, 0.9),
]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('func,ref,low,high', CASES)
def test_forward_backward(func, ref, low, high, dtype):
    # ndtri is strongly curved: a smaller step keeps the numerical estimate exact
    opts = {'eps': 1e-4} if func is F.ndtri and dtype == numpy.float64 else {}
    check_op(func, ref, (uniform((3, 2), dtype, low, high),), dtype, **opts)


@needs_scipy
def test_log_ndtr_far_tail_is_finite():
    x = numpy.array([-40., -20.], numpy.float64)
    y = F.log_ndtr(x)
    assert numpy.all(numpy.isfinite(y.array))
    # log Phi(x) ~ -x^2/2 - log(-x) - log(sqrt(2 pi)) for x -> -inf
    approx = -x * x / 2 - numpy.log(-x) - 0.5 * numpy.log(2 * numpy.pi)
    numpy.testing.assert_allclose(y.array, approx, rtol=1e-3)


@pytest.mark.parametrize('func', [F.ndtr, F.log_ndtr, F.ndtri])
def test_rejects_int(func):
    with pytest.raises(type_check.InvalidType):
        func(numpy.arange(3))
