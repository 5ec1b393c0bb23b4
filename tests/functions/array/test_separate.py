import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, axis', [((2, 3, 4), 0), ((2, 3, 4), 1), ((2, 3, 4), -1),
                                         ((3,), 0)])
def test_separate(dtype, shape, axis, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    ys = F.separate(x, axis)
    assert isinstance(ys, tuple)
    assert len(ys) == shape[axis]
    for i, y in enumerate(ys):
        assert isinstance(y.array, numpy.ndarray)
        numpy.testing.assert_array_equal(y.array, numpy.take(x, i, axis=axis))

    def f(x):
        return F.separate(x, axis)
    gys = [numpy.asarray(numpy.random.uniform(-1, 1, y.shape), dtype=dtype) for y in ys]
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gys, ggx, dtype)


def test_separate_partial_grad():
    x = minichainer.Variable(numpy.ones((3, 2), numpy.float32))
    ys = F.separate(x, 0)
    F.sum(ys[1] * 3.0).backward()
    numpy.testing.assert_array_equal(x.grad, [[0, 0], [3, 3], [0, 0]])


@pytest.mark.parametrize('axis', [2, -3])
def test_separate_invalid_axis(axis):
    with pytest.raises(type_check.InvalidType):
        F.separate(numpy.zeros((2, 3), numpy.float32), axis)
