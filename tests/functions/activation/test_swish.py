import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, bwd_opts, fwd_tol, uniform


def _swish(x, beta):
    b = beta.reshape((1,) + beta.shape + (1,) * (x.ndim - beta.ndim - 1))
    return x / (1 + numpy.exp(-b * x))


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('beta_shape', [(3,), (3, 4), ()])
def test_swish(dtype, beta_shape):
    x = uniform((2, 3, 4), dtype)
    beta = numpy.asarray(numpy.random.RandomState(1).uniform(0.5, 1.5, beta_shape), dtype)
    y = F.swish(x, beta)
    assert y.dtype == dtype and y.shape == x.shape
    numpy.testing.assert_allclose(
        y.array.astype(numpy.float64),
        _swish(x.astype(numpy.float64), beta.astype(numpy.float64)), **fwd_tol(dtype))
    rng = numpy.random.RandomState(2)
    gy = rng.uniform(-1, 1, x.shape).astype(dtype)
    f = F.swish
    if beta.ndim == 0:
        # gradient_check cannot perturb 0-dim inputs; feed beta as (1,) and reshape inside
        beta = beta.reshape(1)

        def f(x, beta):
            return F.swish(x, F.reshape(beta, ()))
    gradient_check.check_backward(f, (x, beta), gy, **bwd_opts(dtype))
    ggx = rng.uniform(-1, 1, x.shape).astype(dtype)
    ggb = rng.uniform(-1, 1, beta.shape).astype(dtype)
    gradient_check.check_double_backward(f, (x, beta), gy, (ggx, ggb), **bwd_opts(dtype))


def test_swish_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.swish(numpy.zeros((2, 3), numpy.float32), numpy.zeros((4,), numpy.float32))


def test_swish_dtype_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.swish(numpy.zeros((2, 3), numpy.float32), numpy.zeros((3,), numpy.float64))
