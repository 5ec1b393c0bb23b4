"""Tests of sign, floor, ceil and fix: forward only, they cut the graph."""
import numpy
import pytest

import minichainer
import minichainer.functions as F

CASES = [(F.sign, numpy.sign), (F.floor, numpy.floor), (F.ceil, numpy.ceil),
         (F.fix, numpy.fix)]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('func,ref', CASES)
def test_forward(func, ref, dtype):
    x = numpy.array([[-2.5, -0.5, 0.], [0.4, 1.5, 3.]], dtype)
    y = func(x)
    assert isinstance(y, minichainer.Variable)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, ref(x))


@pytest.mark.parametrize('func,ref', CASES)
def test_cuts_graph(func, ref):
    x = minichainer.Variable(numpy.array([-1.5, 2.5], numpy.float32))
    y = func(x)
    assert y.creator is None
    numpy.testing.assert_array_equal(y.array, ref(x.array))


def test_zero_dim():
    y = F.floor(numpy.array(2.5, numpy.float32))
    assert y.shape == () and isinstance(y.array, numpy.ndarray) and y.array == 2.
