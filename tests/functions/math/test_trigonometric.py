import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform

CASES = [
    (F.sin, numpy.sin, -2., 2.),
    (F.cos, numpy.cos, -2., 2.),
    (F.tan, numpy.tan, -1., 1.),
    (F.arcsin, numpy.arcsin, -0.8, 0.8),
    (F.arccos, numpy.arccos, -0.8, 0.8),
    (F.arctan, numpy.arctan, -2., 2.),
]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('func,ref,low,high', CASES)
def test_unary(func, ref, low, high, dtype):
    check_op(func, ref, (uniform((3, 2), dtype, low, high),), dtype)


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_arctan2(dtype):
    x1 = uniform((3, 2), dtype, 0.5, 1.5, seed=3)
    x2 = uniform((3, 2), dtype, -1.5, 1.5, seed=4)
    x2[numpy.abs(x2) < 0.3] = 0.5
    check_op(F.arctan2, numpy.arctan2, (x1, x2), dtype)


def test_arctan2_quadrants():
    y = F.arctan2(numpy.array([1., -1.], numpy.float64), numpy.array([-1., -1.]))
    numpy.testing.assert_allclose(y.array, [3 * numpy.pi / 4, -3 * numpy.pi / 4])


def test_arctan2_one_input_needs_no_grad():
    x1 = minichainer.Variable(numpy.array([1., 2.], numpy.float64))
    y = F.arctan2(x1, numpy.array([3., 4.]))
    y.grad = numpy.ones(2)
    y.backward()
    numpy.testing.assert_allclose(x1.grad, [3. / 10, 4. / 20])


@pytest.mark.parametrize('func', [F.sin, F.cos, F.tan, F.arcsin, F.arccos, F.arctan])
def test_rejects_int(func):
    with pytest.raises(type_check.InvalidType):
        func(numpy.arange(3, dtype=numpy.int32))


def test_arctan2_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.arctan2(numpy.arange(3), numpy.ones(3, numpy.float32))
