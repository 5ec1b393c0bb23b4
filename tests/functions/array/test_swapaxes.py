import numpy
import pytest

import minichainer.functions as F


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('axes', [(0, 1), (-1, 0), (2, 2)])
def test_swapaxes(dtype, axes, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (2, 3, 4)), dtype=dtype)
    y = F.swapaxes(x, *axes)
    expected = x.swapaxes(*axes)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.swapaxes(x, *axes)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


def test_swapaxes_label():
    from minichainer.functions.array.swapaxes import Swapaxes
    assert Swapaxes(0, 1).label == 'Swapaxes'
