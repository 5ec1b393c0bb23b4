import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, axis', [
    ((3, 4), 0), ((3, 4), 1), ((3, 4), 2), ((3, 4), -1), ((3, 4), -3), ((), 0),
])
def test_stack(dtype, shape, axis, check_grads):
    xs = [numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype) for _ in range(3)]
    y = F.stack(xs, axis)
    expected = numpy.stack(xs, axis)
    numpy.testing.assert_array_equal(y.array, expected)

    def f(*xs):
        return F.stack(xs, axis)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggxs = [numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype) for _ in range(3)]
    check_grads(f, xs, gy, ggxs, dtype)


@pytest.mark.parametrize('axis', [3, -4])
def test_stack_axis_out_of_range(axis):
    xs = [numpy.zeros((3, 4), numpy.float32)] * 2
    with pytest.raises(type_check.InvalidType):
        F.stack(xs, axis)


def test_stack_mismatched_shapes():
    with pytest.raises(type_check.InvalidType):
        F.stack([numpy.zeros((3, 4), numpy.float32), numpy.zeros((3, 5), numpy.float32)])


def test_stack_mismatched_dtypes():
    with pytest.raises(type_check.InvalidType):
        F.stack([numpy.zeros((3,), numpy.float32), numpy.zeros((3,), numpy.float64)])
