import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_gaussian_draws_standard_normal(dtype):
    rng = numpy.random.RandomState(0)
    m = rng.uniform(-1, 1, (3, 2)).astype(dtype)
    v = rng.uniform(-1, 1, (3, 2)).astype(dtype)
    numpy.random.seed(5)
    y, eps = F.gaussian(m, v, return_eps=True)
    numpy.random.seed(5)
    eps_ref = numpy.random.standard_normal((3, 2)).astype(dtype)
    assert eps.dtype == dtype and y.dtype == dtype
    numpy.testing.assert_array_equal(eps, eps_ref)
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(
        y.array, m.astype(numpy.float64) + numpy.exp(v.astype(numpy.float64) / 2) * eps_ref,
        rtol=tol, atol=tol)


def test_gaussian_draws_in_test_mode_too():
    m = numpy.zeros(3, numpy.float32)
    with minichainer.using_config('train', False):
        numpy.random.seed(0)
        y = F.gaussian(m, m)
    numpy.random.seed(0)
    numpy.testing.assert_array_equal(y.array, numpy.random.standard_normal(3).astype('f'))


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_gaussian_gradients(dtype):
    rng = numpy.random.RandomState(1)
    m, v, gy, ggm, ggv = (rng.uniform(-1, 1, (3, 2)).astype(dtype) for _ in range(5))
    eps = rng.standard_normal((3, 2)).astype(dtype)

    def f(m, v):
        return F.gaussian(m, v, eps=eps)
    gradient_check.check_backward(f, (m, v), gy, atol=1e-3, rtol=1e-3)
    gradient_check.check_double_backward(f, (m, v), gy, (ggm, ggv), atol=1e-3, rtol=1e-3)


def test_gaussian_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.gaussian(numpy.zeros(3, numpy.float32), numpy.zeros(2, numpy.float32))
