"""get_item, reshape, transpose, broadcast_to, broadcast (the core's array functions)."""
import numpy
import pytest

import minichainer.functions as F
from minichainer import Variable, gradient_check
from minichainer.utils import type_check


def _x(shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape)


SLICES = [1, -1, slice(None, 2), (slice(None), 1), (Ellipsis, 0), (None, 1),
          [0, 2, 0], numpy.array([1, 1, 2]), (numpy.array([0, 1]), numpy.array([2, 0])),
          numpy.array([True, False, True]), (slice(None), [3, 1, 3]), ()]


@pytest.mark.parametrize('slices', SLICES)
def test_get_item(slices):
    x = _x((3, 4, 2))
    y = F.get_item(x, slices)
    key = tuple(slices) if isinstance(slices, list) and False else slices
    expected = x[key]
    numpy.testing.assert_array_equal(y.array, expected)
    gy = _x(expected.shape, 1)
    gradient_check.check_backward(lambda v: F.get_item(v, slices), x, gy)
    gradient_check.check_double_backward(lambda v: F.get_item(v, slices), x, gy,
                                         _x(x.shape, 2))


def test_get_item_repeated_index_adds_gradients():
    x = Variable(numpy.zeros(3, numpy.float32))
    y = x[[0, 0, 2]]
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [2, 0, 1])


def test_get_item_with_variable_index():
    x = _x((4,))
    y = F.get_item(x, Variable(numpy.array([3, 0])))
    numpy.testing.assert_array_equal(y.array, x[[3, 0]])


@pytest.mark.parametrize('shape', [(6, 4), (-1, 3), (2, -1, 2), 24, (24,)])
def test_reshape(shape):
    x = _x((2, 3, 4))
    y = F.reshape(x, shape)
    expected = x.reshape(shape)
    numpy.testing.assert_array_equal(y.array, expected)
    gradient_check.check_backward(lambda v: F.reshape(v, shape), x, _x(expected.shape, 1))
    gradient_check.check_double_backward(lambda v: F.reshape(v, shape), x,
                                         _x(expected.shape, 1), _x(x.shape, 2))


def test_reshape_bad_size():
    with pytest.raises(type_check.InvalidType):
        F.reshape(_x((2, 3)), (4, 2))
    with pytest.raises(type_check.InvalidType):
        F.reshape(_x((2, 3)), (-1, 4))
    with pytest.raises(ValueError):
        F.reshape(_x((2, 3)), (-1, -1))


@pytest.mark.parametrize('axes', [None, (1, 0, 2), (2, 0, 1), (-1, 0, 1)])
def test_transpose(axes):
    x = _x((2, 3, 4))
    y = F.transpose(x, axes)
    expected = x.transpose(axes)
    numpy.testing.assert_array_equal(y.array, expected)
    gradient_check.check_backward(lambda v: F.transpose(v, axes), x, _x(expected.shape, 1))
    gradient_check.check_double_backward(lambda v: F.transpose(v, axes), x,
                                         _x(expected.shape, 1), _x(x.shape, 2))


@pytest.mark.parametrize('in_shape, shape', [((3,), (2, 3)), ((2, 1), (2, 4)),
                                             ((1, 3, 1), (2, 3, 4)), ((), (2,))])
def test_broadcast_to(in_shape, shape):
    x = _x(in_shape)
    y = F.broadcast_to(x, shape)
    numpy.testing.assert_array_equal(y.array, numpy.broadcast_to(x, shape))
    gradient_check.check_backward(lambda v: F.broadcast_to(v, shape), x, _x(shape, 1))
    gradient_check.check_double_backward(lambda v: F.broadcast_to(v, shape), x,
                                         _x(shape, 1), _x(in_shape, 2))


def test_broadcast_to_bad_shape():
    with pytest.raises(type_check.InvalidType):
        F.broadcast_to(_x((3,)), (2, 4))
    with pytest.raises(type_check.InvalidType):
        F.broadcast_to(_x((2, 3)), (3,))


def test_broadcast():
    a, b = _x((3, 1), 1), _x((1, 4), 2)
    ya, yb = F.broadcast(a, b)
    assert ya.shape == yb.shape == (3, 4)
    single = F.broadcast(a)
    assert single.shape == (3, 1)
    gradient_check.check_backward(lambda u, v: F.broadcast(u, v), (a, b),
                                  (_x((3, 4), 3), _x((3, 4), 4)))
    with pytest.raises(type_check.InvalidType):
        F.broadcast(_x((3,)), _x((4,)))
