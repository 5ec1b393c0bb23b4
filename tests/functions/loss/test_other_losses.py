import math

import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


@pytest.mark.parametrize('norm', ['L1', 'L2'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_hinge(norm, reduce, dtype):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-2, 2, (5, 4)).astype(dtype)
    t = rng.randint(0, 4, 5).astype(numpy.int32)
    y = F.hinge(x, t, norm, reduce)
    sign = -numpy.ones_like(x)
    sign[numpy.arange(5), t] = 1
    ref = numpy.maximum(0, 1 - sign * x)
    if norm == 'L2':
        ref = ref ** 2
    if reduce == 'mean':
        ref = ref.sum() / 5
    numpy.testing.assert_allclose(y.array, ref, rtol=1e-5)
    gy = None if reduce == 'mean' else rng.uniform(-1, 1, x.shape).astype(dtype)
    gradient_check.check_backward(lambda x, t: F.hinge(x, t, norm, reduce), (x, t), gy,
                                  atol=1e-3, rtol=1e-2)


def test_hinge_errors():
    with pytest.raises(NotImplementedError):
        F.hinge(numpy.zeros((2, 2), 'f'), numpy.zeros(2, 'i'), norm='L3')
    with pytest.raises(ValueError):
        F.hinge(numpy.zeros((2, 2), 'f'), numpy.array([0, 2], 'i'))


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_contrastive(reduce):
    rng = numpy.random.RandomState(1)
    x0 = rng.uniform(-1, 1, (5, 3))
    x1 = rng.uniform(-1, 1, (5, 3))
    y = numpy.array([1, 0, 1, 0, 0], numpy.int32)
    out = F.contrastive(x0, x1, y, margin=1.5, reduce=reduce)
    d = numpy.sqrt(((x0 - x1) ** 2).sum(1))
    ref = 0.5 * (y * d ** 2 + (1 - y) * numpy.maximum(1.5 - d, 0) ** 2)
    if reduce == 'mean':
        ref = ref.mean()
    numpy.testing.assert_allclose(out.array, ref, rtol=1e-10)
    gy = None if reduce == 'mean' else rng.uniform(-1, 1, 5)
    gradient_check.check_backward(lambda a, b, c: F.contrastive(a, b, c, 1.5, reduce),
                                  (x0, x1, y), gy, atol=1e-6, rtol=1e-5)
    with pytest.raises(ValueError):
        F.contrastive(x0, x1, y, margin=0)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_triplet(reduce):
    rng = numpy.random.RandomState(2)
    a, p, n = (rng.uniform(-1, 1, (6, 3)) for _ in range(3))
    out = F.triplet(a, p, n, margin=0.3, reduce=reduce)
    ref = numpy.maximum(((a - p) ** 2).sum(1) - ((a - n) ** 2).sum(1) + 0.3, 0)
    if reduce == 'mean':
        ref = ref.mean()
    numpy.testing.assert_allclose(out.array, ref, rtol=1e-10)
    gy = None if reduce == 'mean' else rng.uniform(-1, 1, 6)
    f = (lambda a, p, n: F.triplet(a, p, n, 0.3, reduce))
    gradient_check.check_backward(f, (a, p, n), gy, atol=1e-6, rtol=1e-5)
    with pytest.raises(type_check.InvalidType):
        F.triplet(a, p, n[:2])


@pytest.mark.parametrize('reduce', ['half_squared_sum', 'no'])
def test_cross_covariance(reduce):
    rng = numpy.random.RandomState(3)
    y = rng.randn(5, 3)
    z = rng.randn(5, 2)
    out = F.cross_covariance(y, z, reduce)
    cov = (y - y.mean(0)).T.dot(z - z.mean(0)) / 5
    ref = 0.5 * (cov ** 2).sum() if reduce == 'half_squared_sum' else cov
    numpy.testing.assert_allclose(out.array, ref, rtol=1e-10)
    gy = None if reduce == 'half_squared_sum' else rng.randn(3, 2)
    f = (lambda y, z: F.cross_covariance(y, z, reduce))
    gradient_check.check_backward(f, (y, z), gy, atol=1e-6, rtol=1e-5)
    gg = (rng.randn(5, 3), rng.randn(5, 2))
    gradient_check.check_double_backward(f, (y, z), gy, gg, atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize('reduce', ['half_squared_sum', 'no'])
def test_decov(reduce):
    rng = numpy.random.RandomState(4)
    h = rng.randn(6, 3)
    out = F.decov(h, reduce)
    cov = (h - h.mean(0)).T.dot(h - h.mean(0)) / 6
    numpy.fill_diagonal(cov, 0)
    ref = 0.5 * (cov ** 2).sum() if reduce == 'half_squared_sum' else cov
    numpy.testing.assert_allclose(out.array, ref, rtol=1e-10)
    gy = None if reduce == 'half_squared_sum' else rng.randn(3, 3)
    gradient_check.check_backward(lambda h: F.decov(h, reduce), (h,), gy,
                                  atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize('reduce', ['sum', 'mean', 'no'])
def test_vae_losses(reduce):
    rng = numpy.random.RandomState(5)
    mean = rng.randn(3, 2)
    ln_var = rng.randn(3, 2)
    x = rng.uniform(0, 1, (3, 2))
    red = {'sum': numpy.sum, 'mean': numpy.mean, 'no': lambda a: a}[reduce]

    kl = F.gaussian_kl_divergence(mean, ln_var, reduce=reduce)
    numpy.testing.assert_allclose(
        kl.array, red(0.5 * (mean ** 2 + numpy.exp(ln_var) - ln_var - 1)), rtol=1e-10)
    nll = F.bernoulli_nll(x, mean, reduce=reduce)
    p = 1 / (1 + numpy.exp(-mean))
    numpy.testing.assert_allclose(
        nll.array, red(-(x * numpy.log(p) + (1 - x) * numpy.log(1 - p))), rtol=1e-10)
    gnll = F.gaussian_nll(x, mean, ln_var, reduce=reduce)
    ref = 0.5 * (ln_var + math.log(2 * math.pi)) + 0.5 * (x - mean) ** 2 / numpy.exp(ln_var)
    numpy.testing.assert_allclose(gnll.array, red(ref), rtol=1e-10)
    gy = None if reduce != 'no' else rng.randn(3, 2)
    gradient_check.check_backward(
        lambda m, v: F.gaussian_kl_divergence(m, v, reduce=reduce), (mean, ln_var), gy,
        atol=1e-6, rtol=1e-5)
    gradient_check.check_backward(
        lambda x, m, v: F.gaussian_nll(x, m, v, reduce=reduce), (x, mean, ln_var), gy,
        atol=1e-6, rtol=1e-5)
    with pytest.raises(ValueError):
        F.bernoulli_nll(x, mean, reduce='max')
