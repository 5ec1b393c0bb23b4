import numpy
import pytest

import minichainer.functions as F


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('shape, repeats, axis', [
    ((2, 3), 2, None), ((2, 3), 3, 0), ((2, 3), 2, -1), ((2, 3), (1, 0, 2), 1),
    ((2, 3), (0, 3), 0), ((3,), (2, 1, 0), None), ((2, 3), 0, 1), ((2, 2), (2,), 0),
    ((), 3, None),
])
def test_repeat(dtype, shape, repeats, axis, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    y = F.repeat(x, repeats, axis)
    expected = numpy.repeat(x, repeats, axis)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.repeat(x, repeats, axis)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('repeats, axis, exc', [
    (-1, None, ValueError), ((1, -2), 0, ValueError), (1.5, None, TypeError),
    ([1, 2], 0, TypeError), (2, 1.0, TypeError), (2, True, TypeError),
])
def test_repeat_invalid(repeats, axis, exc):
    with pytest.raises(exc):
        F.repeat(numpy.zeros((2, 3), numpy.float32), repeats, axis)
