"""Seeded sampling draws the same numbers as Chainer 7.8.1 (values computed once with it)."""
import numpy as np
import pytest

import minichainer
import minichainer.distributions as D

f = np.float32

# numpy.random.seed(3); dist.sample((2,)) with the real Chainer 7.8.1: (dtype, values)
CHAINER_SAMPLES = {
    'Normal': ('float32', [[1.788628, 1.87302], [0.096497, -2.726985]]),
    'NormalLog': ('float32', [[1.788628, 1.719683], [0.096497, -2.07238]]),
    'Bernoulli': ('int64', [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
    'Categorical': ('int64', [[2.0, 0.0], [2.0, 0.0]]),
    'OneHotCategorical': ('float32', [
        [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
        [[0.0, 0.0, 1.0], [1.0, 0.0, 0.0]],
    ]),
    'Uniform': ('float32', [[0.550798, 2.416296], [0.290905, 2.021655]]),
    'Exponential': ('float32', [[0.800282, 0.615754], [0.343765, 0.35752]]),
    'Laplace': ('float32', [[0.107135, 2.076721], [-0.541612, 1.043786]]),
    'LogNormal': ('float32', [[5.981243, 3.381282], [1.101307, 1.070637]]),
    'Gamma': ('float32', [[0.800282, 1.954287], [2.234431, 8.104598]]),
    'Beta': ('float32', [[0.548185, 0.710004], [0.129427, 0.74906]]),
    'MultivariateNormal': ('float32', [[1.788628, 2.767334], [0.096497, -2.678737]]),
    'Cauchy': ('float32', [[4.097567, 0.896434], [0.781906, 1.263928]]),
    'Chisquare': ('float32', [[0.612874, 2.548061], [3.310266, 0.179011]]),
    'Dirichlet': ('float32', [
        [[0.12961, 0.106825, 0.763565], [0.000252, 0.129429, 0.870319]],
        [[0.395628, 0.232818, 0.371554], [0.057761, 0.031443, 0.910796]],
    ]),
    'Geometric': ('float32', [[3.0, 1.0], [1.0, 1.0]]),
    'Gumbel': ('float32', [[0.222791, 0.583521], [1.067796, 1.670833]]),
    'Pareto': ('float32', [[1.305728, 4.545567], [1.121412, 3.221479]]),
    'Poisson': ('float32', [[2.0, 4.0], [0.0, 2.0]]),
}

MAKERS = {
    'Normal': lambda: D.Normal(np.array([0., 1.], f), np.array([1., 2.], f)),
    'NormalLog': lambda: D.Normal(np.array([0., 1.], f), log_scale=np.array([0., .5], f)),
    'Bernoulli': lambda: D.Bernoulli(np.array([.2, .7, .5], f)),
    'Categorical': lambda: D.Categorical(np.array([[.2, .3, .5], [.6, .3, .1]], f)),
    'OneHotCategorical': lambda: D.OneHotCategorical(
        np.array([[.2, .3, .5], [.6, .3, .1]], f)),
    'Uniform': lambda: D.Uniform(low=np.array([0., 1.], f), high=np.array([1., 3.], f)),
    'Exponential': lambda: D.Exponential(np.array([1., 2.], f)),
    'Laplace': lambda: D.Laplace(np.array([0., 1.], f), np.array([1., 2.], f)),
    'LogNormal': lambda: D.LogNormal(np.array([0., 1.], f), np.array([1., .5], f)),
    'Gamma': lambda: D.Gamma(np.array([1., 2.5], f), np.array([1., 2.], f)),
    'Beta': lambda: D.Beta(np.array([1., 2.5], f), np.array([2., .5], f)),
    'MultivariateNormal': lambda: D.MultivariateNormal(
        np.array([0., 1.], f), scale_tril=np.array([[1., 0.], [.5, 2.]], f)),
    'Cauchy': lambda: D.Cauchy(np.array([0., 1.], f), np.array([1., 2.], f)),
    'Chisquare': lambda: D.Chisquare(np.array([1., 3.], f)),
    'Dirichlet': lambda: D.Dirichlet(np.array([[1., 2., 3.], [.5, .5, 2.]], f)),
    'Geometric': lambda: D.Geometric(np.array([.3, .8], f)),
    'Gumbel': lambda: D.Gumbel(np.array([0., 1.], f), np.array([1., 2.], f)),
    'Pareto': lambda: D.Pareto(np.array([1., 2.], f), np.array([3., 1.5], f)),
    'Poisson': lambda: D.Poisson(np.array([1., 4.5], f)),
}


@pytest.mark.parametrize('name', sorted(CHAINER_SAMPLES))
def test_seeded_sample_matches_chainer(name):
    dtype, expected = CHAINER_SAMPLES[name]
    np.random.seed(3)
    sample = MAKERS[name]().sample((2,))
    assert isinstance(sample, minichainer.Variable)
    assert sample.dtype == np.dtype(dtype)
    np.testing.assert_allclose(sample.array, np.array(expected), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('sample_shape, leading', [((), ()), (3, (3,)), ((2, 3), (2, 3)),
                                                   ([4], (4,))])
def test_sample_shape(sample_shape, leading):
    dist = MAKERS['Dirichlet']()
    sample = dist.sample(sample_shape)
    assert sample.shape == leading + dist.batch_shape + dist.event_shape


def test_sample_is_sample_n_reshaped():
    dist = MAKERS['MultivariateNormal']()
    np.random.seed(1)
    flat = dist.sample_n(6).array
    np.random.seed(1)
    shaped = dist.sample((2, 3)).array
    np.testing.assert_array_equal(shaped, flat.reshape(2, 3, 2))


def test_sample_shape_type_error():
    with pytest.raises(TypeError, match='sample_shape'):
        MAKERS['Normal']().sample(2.5)
