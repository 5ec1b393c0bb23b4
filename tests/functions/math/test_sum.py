import numpy
import pytest

import minichainer.functions as F
from minichainer import Variable, gradient_check
from minichainer.utils import type_check


def _x(shape, dtype=numpy.float64, seed=0):
    return numpy.random.RandomState(seed).uniform(-1, 1, shape).astype(dtype)


@pytest.mark.parametrize('axis', [None, 0, 1, -1, (0, 2), (-1, 0)])
@pytest.mark.parametrize('keepdims', [False, True])
def test_sum(axis, keepdims):
    x = _x((2, 3, 4))
    y = F.sum(x, axis=axis, keepdims=keepdims)
    expected = x.sum(axis=axis, keepdims=keepdims)
    assert y.shape == expected.shape
    numpy.testing.assert_allclose(y.array, expected)
    gy = _x(expected.shape, seed=1)
    gradient_check.check_backward(lambda v: F.sum(v, axis, keepdims), x, gy)
    gradient_check.check_double_backward(lambda v: F.sum(v, axis, keepdims), x, gy,
                                         _x(x.shape, seed=2))


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32])
def test_sum_dtypes(dtype):
    x = _x((3, 4), dtype)
    y = F.sum(x, axis=1)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, x.sum(axis=1), rtol=1e-2)


def test_sum_zero_dim():
    y = F.sum(numpy.array(3.0))
    assert y.shape == () and float(y.array) == 3.0


def test_sum_bad_axis():
    with pytest.raises(type_check.InvalidType):
        F.sum(_x((2, 3)), axis=2)
    with pytest.raises(ValueError, match='duplicate'):
        F.sum(_x((2, 3)), axis=(0, 0))
    with pytest.raises(TypeError):
        F.sum(_x((2, 3)), axis=1.5)


def test_sum_bad_axis_names_the_axis_argument():
    with pytest.raises(type_check.InvalidType,
                       match=r'each value of the axis argument\nActual: axis=3, x\.ndim=2'):
        F.sum(_x((2, 3)), axis=3)
    with pytest.raises(type_check.InvalidType, match=r'axis=\(0, -4\), x\.ndim=2'):
        F.sum(_x((2, 3)), axis=(0, -4))


def test_sum_int_input_rejected():
    with pytest.raises(type_check.InvalidType):
        F.sum(numpy.arange(3))


@pytest.mark.parametrize('in_shape, shape', [((2, 3), (3,)), ((2, 3), (1, 3)),
                                             ((4, 2, 3), (2, 1)), ((2, 3), (2, 3))])
def test_sum_to(in_shape, shape):
    x = _x(in_shape)
    y = F.sum_to(x, shape)
    assert y.shape == shape
    expected = x
    while expected.ndim > len(shape):
        expected = expected.sum(0)
    for i, n in enumerate(shape):
        if n == 1 and expected.shape[i] != 1:
            expected = expected.sum(i, keepdims=True)
    numpy.testing.assert_allclose(y.array, expected)
    gradient_check.check_backward(lambda v: F.sum_to(v, shape), x, _x(shape, seed=1))


def test_sum_to_incompatible():
    with pytest.raises(ValueError, match='sum_to'):
        F.sum_to(Variable(_x((2, 3))), (4,))
