"""Gradients through log_prob, statistics, reparameterized samples and KL divergences."""
import numpy as np
import pytest

import minichainer
import minichainer.distributions as D
from minichainer import gradient_check

d = np.float64
LOC = np.array([-0.5, 0.3, 1.2])
SCALE = np.array([0.7, 1.0, 1.6])
POS = np.array([0.8, 1.7, 3.0])
PROB = np.array([0.2, 0.5, 0.8])
X = np.array([[-1.3, 0.4, 2.0], [0.3, -0.2, 1.5]])
XPOS = np.array([[0.3, 1.1, 2.0], [1.4, 0.5, 0.9]])
XUNIT = np.array([[0.1, 0.5, 0.85], [0.7, 0.2, 0.4]])
TRIL = np.array([[1.0, 0.0], [0.5, 2.0]])

# name: (constructor taking the parameters, parameter values, point where log_prob is taken)
LOG_PROB_CASES = {
    'Normal': (D.Normal, (LOC, SCALE), X),
    'NormalLogScale': (lambda loc, s: D.Normal(loc, log_scale=s), (LOC, np.log(SCALE)), X),
    'Bernoulli': (lambda p: D.Bernoulli(p), (PROB,), np.array([[0., 1., 1.], [1., 0., 0.]])),
    'BernoulliLogit': (lambda lg: D.Bernoulli(logit=lg), (LOC,), np.array([[0., 1., 1.]])),
    'Categorical': (lambda p: D.Categorical(p), (np.array([[0.2, 0.3, 0.5]]),),
                    np.array([[2], [0]], np.int32)),
    'CategoricalLogit': (lambda lg: D.Categorical(logit=lg), (np.array([[0.2, -1.0, 0.5]]),),
                         np.array([[2], [1]], np.int32)),
    'OneHotCategorical': (D.OneHotCategorical, (np.array([[0.2, 0.3, 0.5]]),),
                          np.array([[[0., 0., 1.]]])),
    'Uniform': (lambda lo, hi: D.Uniform(low=lo, high=hi), (LOC - 2, LOC + 2), X * 0.5),
    'Exponential': (D.Exponential, (POS,), XPOS),
    'Laplace': (D.Laplace, (LOC, SCALE), X),
    'LogNormal': (D.LogNormal, (LOC, SCALE), XPOS),
    'Gamma': (D.Gamma, (POS, SCALE), XPOS),
    'Beta': (D.Beta, (POS, SCALE), XUNIT),
    'Cauchy': (D.Cauchy, (LOC, SCALE), X),
    'Chisquare': (D.Chisquare, (POS,), XPOS),
    'Dirichlet': (D.Dirichlet, (np.array([[1.0, 2.0, 3.0]]),), np.array([[0.2, 0.3, 0.5]])),
    'Geometric': (D.Geometric, (PROB,), np.array([[1., 3., 2.]])),
    'Gumbel': (D.Gumbel, (LOC, SCALE), X),
    'Pareto': (D.Pareto, (SCALE, POS), XPOS + 2),
    'Poisson': (D.Poisson, (POS,), np.array([[0., 2., 5.]])),
    'MultivariateNormal': (lambda loc, s: D.MultivariateNormal(loc, scale_tril=s),
                           (np.array([0.1, -0.3]), TRIL), np.array([[0.5, 1.0], [-1., 0.2]])),
}


@pytest.mark.parametrize('name', sorted(LOG_PROB_CASES))
def test_log_prob_backward(name):
    make, params, x = LOG_PROB_CASES[name]

    def f(*params):
        return make(*params).log_prob(x)

    out_shape = f(*params).shape
    gy = np.random.normal(size=out_shape)
    gradient_check.check_backward(f, params, gy, dtype=d, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize('name', ['Normal', 'Bernoulli', 'Laplace', 'Gamma', 'Beta',
                                  'MultivariateNormal'])
def test_log_prob_double_backward(name):
    make, params, x = LOG_PROB_CASES[name]

    def f(*params):
        return make(*params).log_prob(x)

    gy = np.random.normal(size=f(*params).shape)
    ggx = tuple(np.random.normal(size=p.shape) for p in params)
    gradient_check.check_double_backward(f, params, gy, ggx, dtype=d, atol=1e-3, rtol=1e-3)


ENTROPY_CASES = ['Normal', 'Bernoulli', 'Uniform', 'Exponential', 'Laplace', 'LogNormal',
                 'Gamma', 'Beta', 'Cauchy', 'Chisquare', 'Dirichlet', 'Gumbel', 'Pareto',
                 'MultivariateNormal']


@pytest.mark.parametrize('name', ENTROPY_CASES)
def test_entropy_backward(name):
    make, params, _ = LOG_PROB_CASES[name]

    def f(*params):
        return make(*params).entropy

    gy = np.random.normal(size=f(*params).shape)
    gradient_check.check_backward(f, params, gy, dtype=d, atol=1e-4, rtol=1e-4)


# Reparameterized samples: the draw is fixed by reseeding, so the sample is a smooth
# function of the parameters.
RSAMPLE_CASES = ['Normal', 'NormalLogScale', 'Uniform', 'Exponential', 'Laplace', 'LogNormal',
                 'Cauchy', 'Gumbel', 'MultivariateNormal']


@pytest.mark.parametrize('name', RSAMPLE_CASES)
def test_sample_backward(name):
    make, params, _ = LOG_PROB_CASES[name]

    def f(*params):
        np.random.seed(7)
        return make(*params).sample((2,))

    gy = np.random.normal(size=f(*params).shape)
    gradient_check.check_backward(f, params, gy, dtype=d, atol=1e-4, rtol=1e-4)


def test_normal_sample_is_loc_plus_scale_times_eps():
    loc = minichainer.Variable(LOC)
    scale = minichainer.Variable(SCALE)
    np.random.seed(0)
    sample = D.Normal(loc, scale).sample(4)
    np.random.seed(0)
    eps = np.random.standard_normal((4, 3))
    np.testing.assert_allclose(sample.array, LOC + SCALE * eps)
    minichainer.functions.sum(sample).backward()
    np.testing.assert_allclose(loc.grad, np.full(3, 4.0))
    np.testing.assert_allclose(scale.grad, eps.sum(axis=0))


KL_CASES = ['Normal', 'Bernoulli', 'Categorical', 'OneHotCategorical', 'Exponential',
            'Laplace', 'LogNormal', 'Gamma', 'Beta', 'Dirichlet', 'Geometric', 'Gumbel',
            'Poisson', 'MultivariateNormal']


@pytest.mark.parametrize('name', KL_CASES)
def test_kl_backward(name):
    make, params, _ = LOG_PROB_CASES[name]
    # a second distribution with shifted (still valid) parameters
    other = tuple(p * 0.9 + 0.05 if p.ndim < 2 or name != 'MultivariateNormal' else p * 1.3
                  for p in params)
    if name in ('Categorical', 'OneHotCategorical'):
        other = (np.array([[0.5, 0.25, 0.25]]),)

    def f(*params):
        return minichainer.kl_divergence(make(*params), make(*other))

    gy = np.random.normal(size=f(*params).shape)
    gradient_check.check_backward(f, params, gy, dtype=d, atol=1e-4, rtol=1e-4)


def test_modified_xlogx_backward():
    from minichainer.distributions.utils import _modified_xlogx
    x = np.array([0.2, 0.5, 0.9])
    gradient_check.check_backward(_modified_xlogx, x, np.ones(3), dtype=d)
    gradient_check.check_double_backward(_modified_xlogx, x, np.ones(3),
                                         np.random.normal(size=3), dtype=d)
    zero = minichainer.Variable(np.zeros(2))
    y = minichainer.functions.sum(_modified_xlogx(zero))
    assert y.array == 0
    with pytest.warns(RuntimeWarning, match='zero input'):
        y.backward()


def test_triangular_inv_backward_is_triangular():
    from minichainer.distributions.multivariate_normal import _triangular_inv
    for lower in (True, False):
        x = TRIL if lower else TRIL.T.copy()
        inv = _triangular_inv(x, lower=lower)
        np.testing.assert_allclose(inv.array, np.linalg.inv(x), atol=1e-12)
        gradient_check.check_backward(lambda a: _triangular_inv(a, lower=lower), x,
                                      np.random.normal(size=(2, 2)), dtype=d)
        gradient_check.check_double_backward(
            lambda a: _triangular_inv(a, lower=lower), x, np.random.normal(size=(2, 2)),
            np.random.normal(size=(2, 2)), dtype=d, atol=1e-3, rtol=1e-3)


def test_function_nodes_check_float_inputs():
    from minichainer.distributions import bernoulli, laplace, utils
    from minichainer.utils.type_check import InvalidType
    ints = np.array([0, 1])
    with pytest.raises(InvalidType, match='logit.dtype.kind == f'):
        bernoulli._bernoulli_log_prob(ints, np.array([0., 1.]))
    for fn in (laplace._laplace_cdf, laplace._laplace_icdf, utils._modified_xlogx):
        with pytest.raises(InvalidType, match='x.dtype.kind == f'):
            fn(ints)
