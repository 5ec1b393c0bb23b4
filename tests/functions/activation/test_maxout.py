import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


@pytest.mark.parametrize('axis', [1, 2, -1])
def test_maxout(axis):
    rng = numpy.random.RandomState(0)
    # a permutation keeps the maxima well separated for the numerical gradient
    x = rng.permutation(48).reshape(2, 6, 4).astype(numpy.float64) * 0.1
    pool = 2
    y = F.maxout(x, pool, axis=axis)
    ax = axis % 3
    shape = x.shape[:ax] + (x.shape[ax] // pool, pool) + x.shape[ax + 1:]
    numpy.testing.assert_array_equal(y.array, x.reshape(shape).max(axis=ax + 1))
    gy = rng.uniform(-1, 1, y.shape)
    gradient_check.check_backward(lambda x: F.maxout(x, pool, axis=axis), x, gy,
                                  atol=1e-6, rtol=1e-6)


def test_maxout_indivisible():
    with pytest.raises(type_check.InvalidType):
        F.maxout(numpy.zeros((2, 5), numpy.float32), 2)


def test_maxout_bad_pool_size():
    with pytest.raises(ValueError):
        F.maxout(numpy.zeros((2, 4), numpy.float32), 0)
