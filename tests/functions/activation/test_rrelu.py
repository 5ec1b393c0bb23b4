import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, bwd_opts, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_rrelu_train_draws_from_global_rng(dtype):
    x = uniform((3, 4), dtype)
    numpy.random.seed(3)
    y, r = F.rrelu(x, return_r=True)
    numpy.random.seed(3)
    r_ref = numpy.random.uniform(1. / 8, 1. / 3, x.shape).astype(dtype)
    numpy.testing.assert_array_equal(r, r_ref)
    assert r.dtype == dtype
    numpy.testing.assert_array_equal(y.array, numpy.where(x >= 0, x, x * r_ref))


def test_rrelu_test_mode_uses_mean_slope():
    x = numpy.array([-1., 2.], numpy.float32)
    with minichainer.using_config('train', False):
        y = F.rrelu(x, l=0.1, u=0.3)
    numpy.testing.assert_allclose(y.array, [-0.2, 2.], rtol=1e-6)


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_rrelu_given_r_gradients(dtype):
    x = uniform((3, 4), dtype, kinks=(0.,))
    r = numpy.random.RandomState(1).uniform(0.1, 0.3, x.shape).astype(dtype)
    rng = numpy.random.RandomState(2)
    gy = rng.uniform(-1, 1, x.shape).astype(dtype)
    ggx = rng.uniform(-1, 1, x.shape).astype(dtype)

    def f(x):
        return F.rrelu(x, r=r.astype(x.dtype))  # x is float64 in the float16 check
    y = f(x)
    numpy.testing.assert_array_equal(y.array, numpy.where(x >= 0, x, x * r))
    gradient_check.check_backward(f, x, gy, **bwd_opts(dtype))
    gradient_check.check_double_backward(f, x, gy, ggx, **bwd_opts(dtype))


def test_rrelu_bad_bounds():
    x = numpy.zeros(3, numpy.float32)
    with pytest.raises(ValueError):
        F.rrelu(x, l=0.5, u=0.2)
    with pytest.raises(ValueError):
        F.rrelu(x, l=-0.1, u=0.2)


def test_rrelu_r_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.rrelu(numpy.zeros(3, numpy.float32), r=numpy.zeros(4, numpy.float32))


def test_rrelu_train_kwarg_rejected():
    with pytest.raises(ValueError):
        F.rrelu(numpy.zeros(3, numpy.float32), train=True)
