import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.backends import cuda


@pytest.mark.parametrize('dst', [-1, '@numpy', numpy, cuda.DummyDevice])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_copy(dst, dtype, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (3, 2)), dtype=dtype)
    y = F.copy(x, dst)
    assert isinstance(y, minichainer.Variable)
    assert isinstance(y.array, numpy.ndarray)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, x)

    def f(x):
        return F.copy(x, dst)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, (3, 2)), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, (3, 2)), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


def test_copy_gpu_unavailable():
    with pytest.raises(RuntimeError):
        F.copy(numpy.zeros(2, numpy.float32), 0)
