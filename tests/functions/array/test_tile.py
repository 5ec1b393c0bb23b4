import numpy
import pytest

import minichainer.functions as F


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, reps', [
    ((2, 3), 2), ((2, 3), (2, 1)), ((2, 3), (3, 1, 2)), ((2, 3, 2), (2,)), ((), 3),
    ((2,), (2, 0)),
])
def test_tile(dtype, shape, reps, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.tile(x, reps)
    expected = numpy.tile(x, reps)
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.tile(x, reps)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('reps, exc', [(-1, ValueError), ((1, -1), ValueError),
                                       ([1, 2], TypeError), (1.0, TypeError)])
def test_tile_invalid(reps, exc):
    with pytest.raises(exc):
        F.tile(numpy.zeros((2, 3), numpy.float32), reps)
