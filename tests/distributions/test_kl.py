"""Registered KL divergences against Monte Carlo estimates, and the KL registry."""
import numpy as np
import pytest

import minichainer
import minichainer.distributions as D
from minichainer import distribution

f = np.float32
N_MC = 200000


def _pair(name):
    a = np.array([0.3, 1.4], f)
    b = np.array([0.9, 0.6], f)
    p = np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], f)
    q = np.array([[0.4, 0.4, 0.2], [0.3, 0.3, 0.4]], f)
    tril1 = np.array([[[1.0, 0.0], [0.5, 2.0]], [[0.3, 0.0], [-0.2, 0.8]]], f)
    tril2 = np.array([[[1.5, 0.0], [0.0, 1.0]], [[0.5, 0.0], [0.1, 0.6]]], f)
    makers = {
        'Normal': lambda: (D.Normal(a, b), D.Normal(b, log_scale=a)),
        'Bernoulli': lambda: (D.Bernoulli(a / 2), D.Bernoulli(logit=b)),
        'Categorical': lambda: (D.Categorical(p), D.Categorical(logit=np.log(q))),
        'OneHotCategorical': lambda: (D.OneHotCategorical(p), D.OneHotCategorical(q)),
        'Uniform': lambda: (D.Uniform(low=a, high=a + 1), D.Uniform(loc=a - 1, scale=b + 2)),
        'Exponential': lambda: (D.Exponential(a + 1), D.Exponential(b + 1)),
        'Laplace': lambda: (D.Laplace(a, b), D.Laplace(b, a)),
        'LogNormal': lambda: (D.LogNormal(a, b), D.LogNormal(b, a)),
        'Gamma': lambda: (D.Gamma(a + 1, b), D.Gamma(b + 1, a)),
        'Beta': lambda: (D.Beta(a + 1, b + 1), D.Beta(b + 2, a + 1)),
        'Dirichlet': lambda: (D.Dirichlet(p * 5), D.Dirichlet(q * 3)),
        'Geometric': lambda: (D.Geometric(a / 2), D.Geometric(b / 2)),
        'Gumbel': lambda: (D.Gumbel(a, b), D.Gumbel(b, a + 0.5)),
        'Pareto': lambda: (D.Pareto(b + 1, a + 2), D.Pareto(b, a + 1)),
        'Poisson': lambda: (D.Poisson(a * 5), D.Poisson(b * 5)),
        'MultivariateNormal': lambda: (D.MultivariateNormal(p[:, :2], scale_tril=tril1),
                                       D.MultivariateNormal(q[:, :2], scale_tril=tril2)),
    }
    return makers[name]()


NAMES = ['Normal', 'Bernoulli', 'Categorical', 'OneHotCategorical', 'Uniform', 'Exponential',
         'Laplace', 'LogNormal', 'Gamma', 'Beta', 'Dirichlet', 'Geometric', 'Gumbel', 'Pareto',
         'Poisson', 'MultivariateNormal']


@pytest.mark.parametrize('name', NAMES)
def test_kl_matches_monte_carlo(name):
    p, q = _pair(name)
    kl = minichainer.kl_divergence(p, q)
    assert isinstance(kl, minichainer.Variable)
    assert kl.shape == p.batch_shape
    x = p.sample(N_MC)
    mc = (p.log_prob(x).array.astype(np.float64) - q.log_prob(x).array).mean(axis=0)
    np.testing.assert_allclose(kl.array, mc, rtol=2e-2, atol=2e-2)


def test_kl_normal_closed_form():
    p = D.Normal(np.array([0.0], f), np.array([1.0], f))
    q = D.Normal(np.array([1.0], f), np.array([2.0], f))
    expected = np.log(2.0) + (1 + 1) / (2 * 4) - 0.5
    np.testing.assert_allclose(minichainer.kl_divergence(p, q).array, [expected], rtol=1e-6)


def test_kl_uniform_outside_support_is_infinite():
    p = D.Uniform(low=np.array([0.0], f), high=np.array([2.0], f))
    q = D.Uniform(low=np.array([0.5], f), high=np.array([3.0], f))
    assert np.isinf(minichainer.kl_divergence(p, q).array).all()


def test_kl_independent_sums_event_axes():
    loc1, loc2 = np.zeros((2, 3), f), np.ones((2, 3), f)
    scale = np.full((2, 3), 2.0, f)
    p = D.Independent(D.Normal(loc1, scale))
    q = D.Independent(D.Normal(loc2, scale))
    kl = minichainer.kl_divergence(p, q)
    elementwise = minichainer.kl_divergence(D.Normal(loc1, scale), D.Normal(loc2, scale))
    np.testing.assert_allclose(kl.array, elementwise.array.sum(axis=1), rtol=1e-6)
    with pytest.raises(ValueError, match='event shapes'):
        minichainer.kl_divergence(p, D.Independent(D.Normal(loc2, scale), 2))


def test_cross_entropy_is_entropy_plus_kl():
    p = D.Normal(np.array([0.0, 1.0], f), np.array([1.0, 0.5], f))
    q = D.Normal(np.array([0.5, 0.0], f), np.array([2.0, 1.0], f))
    ce = minichainer.cross_entropy(p, q)
    expected = p.entropy.array + minichainer.kl_divergence(p, q).array
    np.testing.assert_allclose(ce.array, expected, rtol=1e-6)
    # H(p, q) = -E_p[log q]
    x = p.sample(N_MC)
    np.testing.assert_allclose(ce.array, -q.log_prob(x).array.mean(axis=0), rtol=2e-2)


def test_unregistered_pair_raises():
    p = D.Normal(np.zeros(1, f), np.ones(1, f))
    q = D.Laplace(np.zeros(1, f), np.ones(1, f))
    with pytest.raises(KeyError, match='Normal, Laplace'):
        minichainer.kl_divergence(p, q)
    with pytest.raises(NotImplementedError):
        minichainer.kl_divergence(p, q)


def test_register_kl_for_new_pair_and_subclass_fallback():
    class MyNormal(D.Normal):
        pass

    class Point(distribution.Distribution):
        pass

    @minichainer.register_kl(Point, D.Laplace)
    def _kl(p, q):
        return 'called'

    try:
        assert minichainer.kl_divergence(Point(), D.Laplace(np.zeros(1, f), np.ones(1, f))) \
            == 'called'
        # a subclass without its own registration uses its base class's function
        p = MyNormal(np.zeros(1, f), np.ones(1, f))
        q = D.Normal(np.ones(1, f), np.ones(1, f))
        np.testing.assert_allclose(minichainer.kl_divergence(p, q).array, [0.5])
    finally:
        del distribution._KLDIVERGENCE[Point, D.Laplace]


def test_register_kl_rejects_non_classes():
    with pytest.raises(TypeError, match='Dist1'):
        minichainer.register_kl('Normal', D.Normal)
