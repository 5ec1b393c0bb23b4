import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, ios, axis', [
    ((4, 6), 2, 0),
    ((4, 6), 3, 1),
    ((4, 6), [1, 4], 1),
    ((4, 6), numpy.array([2]), 0),
    ((2, 3, 4), [0, 2, 2, 4], -1),
    ((2, 3, 4), [], 1),
    ((4, 6), (1, 3), 0),
])
def test_split_axis(dtype, shape, ios, axis, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    ys = F.split_axis(x, ios, axis)
    expected = numpy.split(x, ios, axis)
    assert isinstance(ys, tuple)
    assert len(ys) == len(expected)
    for y, e in zip(ys, expected):
        assert y.shape == e.shape
        numpy.testing.assert_array_equal(y.array, e)

    def f(x):
        return F.split_axis(x, ios, axis)
    gys = [numpy.asarray(numpy.random.uniform(-1, 1, e.shape), dtype=dtype) for e in expected]
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gys, ggx, dtype)


def test_split_axis_force_tuple():
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    y = F.split_axis(x, 1, 0, force_tuple=False)
    assert isinstance(y, minichainer.Variable)
    numpy.testing.assert_array_equal(y.array, x)
    ys = F.split_axis(x, 1, 0)
    assert isinstance(ys, tuple) and len(ys) == 1


def test_split_axis_partial_grads():
    x = minichainer.Variable(numpy.arange(12, dtype=numpy.float32).reshape(2, 6))
    a, b, c = F.split_axis(x, 3, 1)
    loss = F.sum(b * 2.0)
    loss.backward()
    expected = numpy.zeros((2, 6), numpy.float32)
    expected[:, 2:4] = 2.0
    numpy.testing.assert_array_equal(x.grad, expected)


def test_split_axis_sections_not_divisible():
    with pytest.raises(type_check.InvalidType):
        F.split_axis(numpy.zeros((2, 5), numpy.float32), 2, 1)


def test_split_axis_index_too_large():
    with pytest.raises(type_check.InvalidType):
        F.split_axis(numpy.zeros((2, 5), numpy.float32), [2, 6], 1)


@pytest.mark.parametrize('ios', [1.5, numpy.array([1.5]), numpy.zeros((1, 1), numpy.int32)])
def test_split_axis_bad_indices(ios):
    with pytest.raises(TypeError):
        F.split_axis(numpy.zeros((2, 5), numpy.float32), ios, 1)


def test_split_axis_unsorted_debug():
    with minichainer.using_config('debug', True):
        with pytest.raises(ValueError):
            F.split_axis(numpy.zeros((2, 5), numpy.float32), [3, 1], 1)


@pytest.mark.parametrize('axis', [2, -3])
def test_split_axis_axis_out_of_range(axis):
    with pytest.raises(type_check.InvalidType):
        F.split_axis(numpy.zeros((2, 4), numpy.float32), 2, axis)
