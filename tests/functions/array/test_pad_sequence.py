import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


def _reference(xs, length, padding):
    if length is None:
        length = max(len(x) for x in xs)
    y = numpy.full((len(xs), length) + xs[0].shape[1:], padding, dtype=xs[0].dtype)
    for i, x in enumerate(xs):
        y[i, :len(x)] = x
    return y


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('lengths, unit, length, padding', [
    ([3, 1, 2], (), None, 0),
    ([3, 1, 0], (2,), 5, -1.5),
    ([2, 2], (2, 3), None, 1),
    ([0, 0], (), None, 0),
])
def test_pad_sequence(dtype, lengths, unit, length, padding, check_grads):
    xs = [numpy.asarray(numpy.random.uniform(-1, 1, (n,) + unit), dtype=dtype) for n in lengths]
    y = F.pad_sequence(xs, length, padding)
    expected = _reference(xs, length, padding)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expected)
    if expected.size == 0:
        return

    def f(*xs):
        return F.pad_sequence(xs, length, padding)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggxs = [numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype) for x in xs]
    check_grads(f, xs, gy, ggxs, dtype)


def test_pad_sequence_int():
    xs = [numpy.array([1, 2, 3], numpy.int32), numpy.array([4], numpy.int32)]
    y = F.pad_sequence(xs, padding=-1)
    numpy.testing.assert_array_equal(y.array, [[1, 2, 3], [4, -1, -1]])


@pytest.mark.parametrize('shapes, length', [
    ([(3, 2), (2, 3)], None), ([(3,), (5,)], 4), ([(), (2,)], None),
])
def test_pad_sequence_invalid(shapes, length):
    xs = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.pad_sequence(xs, length)
