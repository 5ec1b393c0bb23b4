"""Tests of lgamma, digamma and polygamma (SciPy-backed, as Chainer)."""
import sys

import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import check_op, uniform

special = pytest.importorskip('scipy.special')


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('func,ref', [(F.lgamma, special.gammaln),
                                      (F.digamma, special.digamma)])
def test_lgamma_digamma(func, ref, dtype):
    check_op(func, ref, (uniform((3, 2), dtype, 0.5, 3.),), dtype)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_polygamma(dtype):
    n = numpy.array([[0, 1], [2, 1], [0, 3]], numpy.int32)
    x = uniform((3, 2), dtype, 0.5, 3.)
    check_op(lambda v: F.polygamma(n, v), lambda v: special.polygamma(n, v), (x,), dtype)


def test_errors(monkeypatch):
    with pytest.raises(type_check.InvalidType):
        F.polygamma(numpy.ones(2, numpy.float32), numpy.ones(2, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.lgamma(numpy.ones(2, numpy.int32))

    # without SciPy the forward raises an ImportError naming the function
    monkeypatch.setitem(sys.modules, 'scipy', None)
    monkeypatch.setitem(sys.modules, 'scipy.special', None)
    with pytest.raises(ImportError, match='lgamma.*SciPy'):
        F.lgamma(numpy.ones(2, numpy.float32))
    with pytest.raises(ImportError, match='polygamma.*SciPy'):
        F.polygamma(numpy.ones(2, numpy.int32), numpy.ones(2, numpy.float32))
