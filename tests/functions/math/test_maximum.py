"""Tests of maximum and minimum (broadcasting, ties, double backprop)."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('func,ref', [(F.maximum, numpy.maximum),
                                      (F.minimum, numpy.minimum)])
@pytest.mark.parametrize('shape1,shape2', [((3, 2), (3, 2)), ((3, 2), (2,)),
                                           ((3, 1), (1, 2))])
def test_forward_backward(func, ref, shape1, shape2, dtype):
    rng = numpy.random.RandomState(1)
    # values on a coarse grid: x1 and x2 never come closer than 0.1
    x1 = (rng.randint(-5, 5, shape1) * 0.2 + 0.1).astype(dtype)
    x2 = (rng.randint(-5, 5, shape2) * 0.2).astype(dtype)
    check_op(func, ref, (x1, x2), dtype)


@pytest.mark.parametrize('func,g1,g2', [
    (F.maximum, [1., 0.], [0., 1.]),
    (F.minimum, [1., 1.], [0., 0.]),
])
def test_ties_go_to_first(func, g1, g2):
    x1 = minichainer.Variable(numpy.array([2., 1.], numpy.float32))
    x2 = minichainer.Variable(numpy.array([2., 3.], numpy.float32))
    y = func(x1, x2)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x1.grad, g1)
    numpy.testing.assert_array_equal(x2.grad, g2)


@pytest.mark.parametrize('func', [F.maximum, F.minimum])
def test_errors(func):
    with pytest.raises(type_check.InvalidType):
        func(numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64))
    with pytest.raises(type_check.InvalidType):
        func(numpy.ones(3, numpy.float32), numpy.ones(4, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        func(numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32))
