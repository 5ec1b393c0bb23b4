import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_square(dtype):
    x = numpy.random.RandomState(0).uniform(-1, 1, (3, 4)).astype(dtype)
    y = F.square(x)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, x * x, rtol=1e-3)
    gy = numpy.random.RandomState(1).uniform(-1, 1, (3, 4)).astype(dtype)
    kw = {'dtype': numpy.float64, 'atol': 1e-3, 'rtol': 1e-2} if dtype == numpy.float16 \
        else {'atol': 1e-4, 'rtol': 1e-3}
    gradient_check.check_backward(F.square, x, gy, **kw)
    gradient_check.check_double_backward(F.square, x, gy, numpy.ones_like(x), **kw)


def test_square_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.square(numpy.arange(3))
