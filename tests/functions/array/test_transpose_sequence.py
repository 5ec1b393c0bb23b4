import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('lengths, unit', [([4, 2, 2, 1], ()), ([3, 3], (2,)), ([2], (2, 1))])
def test_transpose_sequence(dtype, lengths, unit, check_grads):
    xs = [numpy.asarray(numpy.random.uniform(-1, 1, (n,) + unit), dtype=dtype) for n in lengths]
    ys = F.transpose_sequence(xs)
    assert len(ys) == lengths[0]
    for t, y in enumerate(ys):
        expected = numpy.stack([x[t] for x in xs if len(x) > t])
        numpy.testing.assert_array_equal(y.array, expected)
    # Transposing twice gives back the input.
    back = F.transpose_sequence(ys)
    for x, b in zip(xs, back):
        numpy.testing.assert_array_equal(b.array, x)

    def f(*xs):
        return F.transpose_sequence(xs)
    gys = [numpy.asarray(numpy.random.uniform(-1, 1, y.shape), dtype=dtype) for y in ys]
    ggxs = [numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype) for x in xs]
    check_grads(f, xs, gys, ggxs, dtype)


def test_transpose_sequence_empty():
    assert F.transpose_sequence([]) == ()


def test_transpose_sequence_partial_grad():
    xs = [minichainer.Variable(numpy.ones((2, 3), numpy.float32)),
          minichainer.Variable(numpy.ones((1, 3), numpy.float32))]
    ys = F.transpose_sequence(xs)
    F.sum(ys[1]).backward()
    numpy.testing.assert_array_equal(xs[0].grad, [[0, 0, 0], [1, 1, 1]])
    numpy.testing.assert_array_equal(xs[1].grad, [[0, 0, 0]])


def test_transpose_sequence_unsorted():
    xs = [numpy.zeros((1, 2), numpy.float32), numpy.zeros((2, 2), numpy.float32)]
    with pytest.raises(type_check.InvalidType):
        F.transpose_sequence(xs)
