import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shapes, axis', [
    ([(2, 3, 4), (2, 1, 4), (2, 2, 4)], 1),
    ([(2, 3), (4, 3)], 0),
    ([(2, 3, 4), (2, 3, 1)], -1),
    ([(3,), (2,), (0,)], 0),
    ([(2, 5)], 1),
])
def test_concat(dtype, shapes, axis, check_grads):
    xs = [numpy.asarray(numpy.random.uniform(-1, 1, s), dtype=dtype) for s in shapes]
    y = F.concat(xs, axis)
    expected = numpy.concatenate(xs, axis)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expected)

    def f(*xs):
        return F.concat(xs, axis)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggxs = [numpy.asarray(numpy.random.uniform(-1, 1, s), dtype=dtype) for s in shapes]
    check_grads(f, xs, gy, ggxs, dtype)


def test_concat_default_axis_is_1():
    xs = [numpy.ones((2, 3), numpy.float32), numpy.zeros((2, 1), numpy.float32)]
    assert F.concat(xs).shape == (2, 4)


def test_concat_variables_keep_graph():
    a = minichainer.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    b = minichainer.Variable(numpy.ones((2, 2), numpy.float32))
    y = F.concat((a, b), axis=1)
    gy = numpy.arange(10, dtype=numpy.float32).reshape(2, 5)
    y.grad = gy
    y.backward()
    numpy.testing.assert_array_equal(a.grad, gy[:, :3])
    numpy.testing.assert_array_equal(b.grad, gy[:, 3:])


@pytest.mark.parametrize('shapes, dtypes, axis', [
    ([(2, 3), (3, 3)], [numpy.float32, numpy.float32], 1),
    ([(2, 3), (2, 3)], [numpy.float32, numpy.float64], 0),
    ([(2, 3), (2, 3, 1)], [numpy.float32, numpy.float32], 0),
    ([(2, 3), (2, 3)], [numpy.float32, numpy.float32], 2),
    ([(2, 3), (2, 3)], [numpy.float32, numpy.float32], -3),
])
def test_concat_invalid(shapes, dtypes, axis):
    xs = [numpy.zeros(s, d) for s, d in zip(shapes, dtypes)]
    with pytest.raises(type_check.InvalidType):
        F.concat(xs, axis)


def test_concat_axis_type():
    with pytest.raises(TypeError):
        F.concat([numpy.zeros((2, 3), numpy.float32)], axis=1.0)
