import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op


def distinct(shape, dtype, seed=0):
    """Values with gaps far larger than the gradient-check step (no ties)."""
    n = int(numpy.prod(shape))
    x = numpy.random.RandomState(seed).permutation(n).astype(numpy.float64)
    return (x / n * 2 - 1).reshape(shape).astype(dtype)


AXES = [(None, False), (1, False), (-1, True), ((0, 2), False), ((0, 2), True)]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('func,ref', [(F.max, numpy.amax), (F.min, numpy.amin)])
@pytest.mark.parametrize('axis,keepdims', AXES)
def test_max_min(func, ref, axis, keepdims, dtype):
    x = distinct((3, 4, 2), dtype)
    check_op(lambda v: func(v, axis=axis, keepdims=keepdims),
             lambda v: ref(v, axis=axis, keepdims=keepdims), (x,), dtype)


def test_max_ties_all_receive_gradient():
    x = minichainer.Variable(numpy.array([1., 3., 3.], numpy.float32))
    y = F.max(x)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0., 1., 1.])


def test_max_axis_errors():
    with pytest.raises(ValueError):
        F.max(numpy.zeros((2, 3), numpy.float32), axis=(0, 0))
    with pytest.raises(TypeError):
        F.max(numpy.zeros((2, 3), numpy.float32), axis=1.5)
    with pytest.raises(type_check.InvalidType):
        F.max(numpy.zeros((2, 3), numpy.float32), axis=2)
    with pytest.raises(type_check.InvalidType):
        F.min(numpy.zeros((2, 3), numpy.float32), axis=-3)
    with pytest.raises(type_check.InvalidType):
        F.max(numpy.zeros((2, 3), numpy.int32))


@pytest.mark.parametrize('func,ref', [(F.argmax, numpy.argmax), (F.argmin, numpy.argmin)])
@pytest.mark.parametrize('axis', [None, 0, -1])
def test_argmax_argmin(func, ref, axis):
    x = distinct((3, 4), numpy.float32)
    y = func(x, axis=axis)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, ref(x, axis=axis))


def test_argmax_not_differentiable():
    x = minichainer.Variable(distinct((3, 4), numpy.float32))
    y = F.argmax(x, axis=1)
    assert y.array.shape == (3,)
    with pytest.raises(TypeError):
        F.argmax(x, axis=(0, 1))
    with pytest.raises(type_check.InvalidType):
        F.argmin(x, axis=2)


@pytest.mark.parametrize('func, ref', [(F.max, numpy.amax), (F.min, numpy.amin)])
@pytest.mark.parametrize('shape, axis', [((64, 100, 2), 2), ((64, 100, 2), -1),
                                         ((300, 16), 1), ((300, 17), 1)])
@pytest.mark.parametrize('keepdims', [False, True])
def test_short_innermost_axis_equals_the_numpy_reduction(func, ref, shape, axis, keepdims):
    # reductions over a short contiguous last axis run as a running max/min over its
    # slices: the same elements in the same order, NaN and signed zeros included
    rng = numpy.random.RandomState(30)
    x = rng.randint(-3, 4, shape).astype(numpy.float32)
    x.reshape(-1, shape[-1])[:3, :2] = [[numpy.nan, 1], [-0.0, 0.0], [0.0, -0.0]]
    v = minichainer.Variable(x)
    y = func(v, axis=axis, keepdims=keepdims)
    expect = ref(x, axis=axis, keepdims=keepdims)
    assert y.shape == expect.shape and y.dtype == expect.dtype
    assert numpy.array_equal(y.array.view(numpy.uint32), expect.view(numpy.uint32))
    gy = rng.uniform(-1, 1, expect.shape).astype(numpy.float32)
    y.grad = gy
    y.backward()
    shape_k = list(shape)
    shape_k[axis] = 1
    cond = x == expect.reshape(shape_k)
    numpy.testing.assert_array_equal(v.grad, cond * gy.reshape(shape_k))
