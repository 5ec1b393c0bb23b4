"""The Distribution base class, Independent, parameter handling and caching."""
import numpy as np
import pytest

import minichainer
import minichainer.distributions as D
from minichainer import distribution

f = np.float32


def test_public_names():
    import minichainer as chainer
    assert chainer.Distribution is distribution.Distribution
    assert chainer.distributions.Normal is D.Normal
    for name in ('Bernoulli', 'Beta', 'Categorical', 'Cauchy', 'Chisquare', 'Dirichlet',
                 'Exponential', 'Gamma', 'Geometric', 'Gumbel', 'Independent', 'Laplace',
                 'LogNormal', 'MultivariateNormal', 'Normal', 'OneHotCategorical', 'Pareto',
                 'Poisson', 'Uniform'):
        assert issubclass(getattr(D, name), distribution.Distribution)


def test_base_class_methods_raise_not_implemented():
    class Empty(distribution.Distribution):
        pass

    dist = Empty()
    for prop in ('batch_shape', 'event_shape', 'mean', 'variance', 'stddev', 'entropy',
                 'covariance', 'mode', 'params', 'support'):
        with pytest.raises(NotImplementedError, match='Empty does not implement ' + prop):
            getattr(dist, prop)
    for method in ('cdf', 'icdf', 'log_cdf', 'log_prob', 'log_survival_function',
                   'perplexity', 'prob', 'survival_function', 'sample_n'):
        with pytest.raises(NotImplementedError, match=method):
            getattr(dist, method)(np.zeros(1, f))


def test_shapes_params_support_xp_device():
    dist = D.Normal(np.zeros((2, 3), f), np.ones((2, 3), f))
    assert dist.batch_shape == (2, 3) and dist.event_shape == ()
    assert sorted(dist.params) == ['loc', 'scale']
    assert dist.support == 'real'
    assert dist.xp is np
    assert dist.device.xp is np
    assert D.Bernoulli(np.ones(2, f) / 2).params.keys() == {'logit'}
    assert D.Uniform(low=np.zeros(1, f), high=np.ones(1, f)).params.keys() == {'low', 'high'}


def test_statistics_are_cached_per_backprop_mode():
    dist = D.Normal(np.zeros(2, f), np.ones(2, f))
    assert dist.variance is dist.variance
    with minichainer.no_backprop_mode():
        no_graph = dist.variance
        assert no_graph is dist.variance
    assert no_graph is not dist.variance
    with pytest.raises(AttributeError, match='read-only|readonly'):
        dist.variance = 1


def test_gradient_reaches_variable_parameters():
    loc = minichainer.Variable(np.array([0.5, -1.0], f))
    log_scale = minichainer.Variable(np.array([0.0, 0.3], f))
    dist = D.Normal(loc, log_scale=log_scale)
    assert dist.loc is loc and dist.log_scale is log_scale
    loss = -minichainer.functions.sum(dist.log_prob(np.zeros(2, f)))
    loss.backward()
    np.testing.assert_allclose(loc.grad, loc.array / np.exp(2 * log_scale.array), rtol=1e-6)
    assert log_scale.grad is not None


@pytest.mark.parametrize('make, message', [
    (lambda: D.Normal(np.zeros(1, f)), 'Normal: either `log_scale` or `scale`'),
    (lambda: D.Normal(np.zeros(1, f), np.ones(1, f), log_scale=np.ones(1, f)), 'not both'),
    (lambda: D.Bernoulli(), 'Bernoulli: either `logit` or `p`'),
    (lambda: D.Categorical(np.ones(2, f), logit=np.ones(2, f)), 'Categorical'),
    (lambda: D.Uniform(low=np.zeros(1, f)), 'Uniform: either `low, high` or `loc, scale`'),
    (lambda: D.MultivariateNormal(np.zeros(2, f)), 'scale_tril` must have a value'),
    (lambda: D.MultivariateNormal(np.zeros(2, f), scale_tril=np.eye(3, dtype=f)),
     r'scale_tril must have shape loc.shape \+ \(d,\) = \(2, 2\)'),
    (lambda: D.Independent(D.Normal(np.zeros(2, f), np.ones(2, f)), 2),
     'reinterpreted_batch_ndims must be less than or equal'),
])
def test_bad_arguments_raise_value_error(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_bad_parameter_types_raise_type_error():
    with pytest.raises(TypeError, match='Normal: loc must be a chainer.Variable or an '
                                        'ndarray, got list'):
        D.Normal([0.0], np.ones(1, f))
    with pytest.raises(TypeError, match='Exponential: lam .* got float'):
        D.Exponential(1.0)
    with pytest.raises(TypeError, match='unexpected keyword'):
        D.Normal(np.zeros(1, f), np.ones(1, f), sigma=np.ones(1, f))


def test_independent_shapes_and_reductions():
    loc = np.random.normal(size=(4, 2, 3)).astype(f)
    scale = np.exp(np.random.normal(size=(4, 2, 3))).astype(f)
    base = D.Normal(loc, scale)
    default = D.Independent(base)
    assert default.reinterpreted_batch_ndims == 2
    assert default.batch_shape == (4,) and default.event_shape == (2, 3)
    ind = D.Independent(base, 1)
    assert ind.batch_shape == (4, 2) and ind.event_shape == (3,)
    assert ind.distribution is base
    x = np.random.normal(size=(5, 4, 2, 3)).astype(f)
    np.testing.assert_allclose(ind.log_prob(x).array, base.log_prob(x).array.sum(-1),
                               rtol=1e-5)
    np.testing.assert_allclose(ind.prob(x).array, base.prob(x).array.prod(-1), rtol=1e-5)
    np.testing.assert_allclose(ind.cdf(x).array, base.cdf(x).array.prod(-1), rtol=1e-5)
    np.testing.assert_allclose(ind.log_cdf(x).array, base.log_cdf(x).array.sum(-1),
                               rtol=1e-5)
    np.testing.assert_allclose(ind.entropy.array, base.entropy.array.sum(-1), rtol=1e-5)
    assert ind.mean is base.mean and ind.stddev is base.stddev
    assert ind.sample(6).shape == (6, 4, 2, 3)
    zero = D.Independent(base, 0)
    np.testing.assert_allclose(zero.log_prob(x).array, base.log_prob(x).array)
    with pytest.raises(RuntimeError, match='not invertible'):
        ind.icdf(x)


def test_independent_covariance_is_block_diagonal():
    loc = np.zeros((2, 3, 2), f)
    tril = np.tile(np.array([[1.0, 0.0], [0.5, 2.0]], f), (2, 3, 1, 1))
    tril[:, 1] *= 2
    ind = D.Independent(D.MultivariateNormal(loc, scale_tril=tril))
    assert ind.batch_shape == (2,) and ind.event_shape == (3, 2)
    cov = ind.covariance.array
    assert cov.shape == (2, 6, 6)
    base_cov = tril @ np.swapaxes(tril, -1, -2)
    for b in range(2):
        expected = np.zeros((6, 6), f)
        for i in range(3):
            expected[2 * i:2 * i + 2, 2 * i:2 * i + 2] = base_cov[b, i]
        np.testing.assert_allclose(cov[b], expected, rtol=1e-6)


def test_copy_of_multivariate_normal():
    import copy
    dist = D.MultivariateNormal(np.zeros(2, f), scale_tril=np.eye(2, dtype=f))
    clone = copy.copy(dist)
    assert clone is not dist
    assert clone.loc is dist.loc and clone.scale_tril is dist.scale_tril


def test_categorical_sampling_needs_normalized_p():
    bad = np.array([[0.2, 0.5], [0.5, 0.5]], f)
    with pytest.raises(ValueError, match='Categorical: p must sum to 1 .* got a sum of 0.7'):
        D.Categorical(bad).sample(2)
    with pytest.raises(ValueError, match='OneHotCategorical: p must sum to 1'):
        D.OneHotCategorical(bad).sample(2)
    # float32 rounding of a normalized p is accepted (renormalized in float64)
    p = np.array([[0.1, 0.2, 0.7]], f) * np.float32(1 + 1e-7)
    assert D.Categorical(p).sample(4).shape == (4, 1)


def test_categorical_log_prob_rejects_out_of_range_class():
    with pytest.raises(ValueError, match='label'):
        D.Categorical(np.array([0.2, 0.8], f)).log_prob(np.array([2]))
