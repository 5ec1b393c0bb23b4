"""Arithmetic behaviours checked against Chainer 7's own tests."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


def test_multi_add_broadcasts_and_sums_gradients_back():
    a = minichainer.Variable(numpy.ones((3, 1), numpy.float32))
    b = minichainer.Variable(numpy.ones((1, 1), numpy.float32))
    c = minichainer.Variable(numpy.ones((2,), numpy.float32))
    y = F.add(a, b, c)
    assert y.shape == (3, 2)
    numpy.testing.assert_array_equal(y.array, numpy.full((3, 2), 3, numpy.float32))
    y.grad = numpy.ones((3, 2), numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(a.grad, numpy.full((3, 1), 2, numpy.float32))
    numpy.testing.assert_array_equal(b.grad, numpy.full((1, 1), 6, numpy.float32))
    numpy.testing.assert_array_equal(c.grad, numpy.full((2,), 3, numpy.float32))


def test_multi_add_rejects_mixed_dtypes():
    a = numpy.ones(2, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.add(a, a, numpy.ones(2, numpy.float64))


def test_radd_with_variable_on_the_left():
    x = minichainer.Variable(numpy.array([1., 2.], numpy.float32))
    y = minichainer.Variable(numpy.array([3., 4.], numpy.float32))
    numpy.testing.assert_array_equal(y.__radd__(x).array, [4., 6.])


@pytest.mark.parametrize('op', [
    lambda x, c: x + c, lambda x, c: c + x, lambda x, c: x - c, lambda x, c: c - x,
    lambda x, c: x * c, lambda x, c: x / c, lambda x, c: c / x, lambda x, c: x ** c,
    lambda x, c: c ** x])
def test_constant_array_of_unbroadcastable_shape_is_invalid_type(op):
    x = minichainer.Variable(numpy.array([1., 2.], numpy.float32))
    with pytest.raises(type_check.InvalidType):
        op(x, numpy.array([3., 4., 5.], numpy.float32))
    with pytest.raises(TypeError):
        op(x, [3., 4., 5.])


@pytest.mark.parametrize('shapes', [((), ()), ((3, 2), ()), ((), (2, 4))])
def test_matmul_of_zero_dim_operand_is_invalid_type(shapes):
    a = minichainer.Variable(numpy.ones(shapes[0], numpy.float32))
    b = minichainer.Variable(numpy.ones(shapes[1], numpy.float32))
    with pytest.raises(type_check.InvalidType):
        a @ b
