import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.functions.array.as_strided import _stride_array


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.int32])
def test_stride_array(dtype):
    x = numpy.arange(8, dtype=dtype)
    numpy.testing.assert_array_equal(_stride_array(x, (4,), (-1,), 3), x[3::-1])
    numpy.testing.assert_array_equal(_stride_array(x, (3, 3), (-1, 2), 3),
                                     [[3, 5, 7], [2, 4, 6], [1, 3, 5]])
    with pytest.raises(ValueError):
        _stride_array(x, (3, 3), (-1, 2), 1)
    with pytest.raises(ValueError):
        _stride_array(x, (3, 3), (1, 3), 1)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.int64])
def test_as_strided_forward(dtype):
    x = numpy.arange(12, dtype=dtype).reshape(3, 4)
    y = F.as_strided(x, (2, 3, 4), (0, 4, 1), 0)
    numpy.testing.assert_array_equal(y.array, numpy.broadcast_to(x, (2, 3, 4)))
    # The offset counts from the start of the memory block under a view.
    flipped = x[::-1]
    numpy.testing.assert_array_equal(F.as_strided(flipped, (12,), (1,), 0).array,
                                     numpy.arange(12))
    # Default offset: where the input starts.
    numpy.testing.assert_array_equal(F.as_strided(x[1], (2,), (2,)).array, [4, 6])


def _grad(x, shape, strides, offset, gy):
    v = minichainer.Variable(x)
    y = F.as_strided(v, shape, strides, offset)
    gx, = minichainer.grad((y,), (v,), (minichainer.Variable(gy),))
    return gx.array


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_as_strided_backward(dtype):
    x = numpy.arange(12, dtype=dtype).reshape(3, 4)
    gx = _grad(x, (2, 3, 4), (0, 4, 1), 0, numpy.ones((2, 3, 4), dtype))
    numpy.testing.assert_array_equal(gx, numpy.full((3, 4), 2, dtype))
    assert gx.dtype == dtype
    # Overlapping input: elements sharing memory get the average.
    x = _stride_array(numpy.arange(8, dtype=dtype), (3, 3), (-1, 2), 3)
    gx = _grad(x, (3, 3), (1, 2), 0, numpy.ones((3, 3), dtype))
    numpy.testing.assert_array_equal(gx, [[0.5, 0.5, 0.], [2., 2., 1.], [1., 0.5, 0.5]])


def test_as_strided_gradient_check(check_grads):
    x = numpy.random.uniform(-1, 1, (4, 5))
    # Sliding windows of length 3 over each row (overlapping outputs).

    def f(x):
        return F.as_strided(x, (4, 3, 3), (5, 1, 1), 0)
    gy = numpy.random.uniform(-1, 1, (4, 3, 3))
    ggx = numpy.random.uniform(-1, 1, (4, 5))
    check_grads(f, x, gy, ggx, numpy.float64)


def test_as_strided_int_backward_raises():
    v = minichainer.Variable(numpy.arange(4, dtype=numpy.int32))
    y = F.as_strided(v, (4,), (-1,), 3)
    with pytest.raises(TypeError):
        minichainer.grad((y,), (v,), (minichainer.Variable(numpy.ones(4, numpy.int32)),))
