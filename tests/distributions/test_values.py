"""Densities, CDFs and statistics against scipy.stats (skipped when SciPy is missing)."""
import numpy as np
import pytest

import minichainer
import minichainer.distributions as D

stats = pytest.importorskip('scipy.stats')

f = np.float32
LOC = np.array([-0.5, 0.0, 1.2], f)
SCALE = np.array([0.7, 1.0, 2.5], f)
POS = np.array([0.8, 1.7, 3.0], f)   # positive parameters
PROB = np.array([0.2, 0.5, 0.9], f)
X = np.array([[-1.3, 0.4, 2.0], [0.3, -0.2, 5.0]], f)        # real points (2, 3)
XPOS = np.array([[0.3, 1.1, 2.0], [4.0, 0.05, 0.9]], f)      # positive points
XUNIT = np.array([[0.1, 0.5, 0.95], [0.7, 0.02, 0.4]], f)    # points in (0, 1)
XINT = np.array([[0, 1, 3], [2, 0, 7]], f)                  # non-negative integers

# name: (distribution, scipy frozen distribution, points, methods compared)
CASES = {
    'Normal': (lambda: D.Normal(LOC, SCALE), lambda: stats.norm(LOC, SCALE), X,
               ['log_prob', 'prob', 'cdf', 'log_cdf', 'survival_function',
                'log_survival_function', 'icdf', 'mean', 'variance', 'stddev', 'entropy']),
    'NormalLogScale': (lambda: D.Normal(LOC, log_scale=np.log(SCALE)),
                       lambda: stats.norm(LOC, SCALE), X,
                       ['log_prob', 'prob', 'cdf', 'entropy', 'stddev']),
    'Bernoulli': (lambda: D.Bernoulli(PROB), lambda: stats.bernoulli(PROB),
                  (XINT > 0).astype(f), ['log_prob', 'prob', 'mean', 'variance', 'stddev',
                                         'entropy']),
    'BernoulliLogit': (lambda: D.Bernoulli(logit=np.log(PROB / (1 - PROB))),
                       lambda: stats.bernoulli(PROB), (XINT > 0).astype(f),
                       ['log_prob', 'prob', 'mean', 'entropy']),
    'Uniform': (lambda: D.Uniform(low=LOC, high=LOC + POS),
                lambda: stats.uniform(LOC, POS), X,
                ['log_prob', 'cdf', 'icdf', 'mean', 'variance', 'stddev', 'entropy']),
    'UniformLocScale': (lambda: D.Uniform(loc=LOC, scale=POS),
                        lambda: stats.uniform(LOC, POS), X, ['log_prob', 'cdf', 'mean']),
    'Exponential': (lambda: D.Exponential(POS), lambda: stats.expon(scale=1 / POS), XPOS,
                    ['log_prob', 'cdf', 'icdf', 'mean', 'variance', 'entropy']),
    'Laplace': (lambda: D.Laplace(LOC, SCALE), lambda: stats.laplace(LOC, SCALE), X,
                ['log_prob', 'prob', 'cdf', 'icdf', 'mean', 'variance', 'stddev', 'entropy']),
    'LogNormal': (lambda: D.LogNormal(LOC, SCALE),
                  lambda: stats.lognorm(SCALE, scale=np.exp(LOC)), XPOS,
                  ['log_prob', 'mean', 'variance', 'entropy']),
    'Gamma': (lambda: D.Gamma(POS, SCALE), lambda: stats.gamma(POS, scale=SCALE), XPOS,
              ['log_prob', 'mean', 'variance', 'entropy']),
    'Beta': (lambda: D.Beta(POS, SCALE), lambda: stats.beta(POS, SCALE), XUNIT,
             ['log_prob', 'mean', 'variance', 'entropy']),
    'Cauchy': (lambda: D.Cauchy(LOC, SCALE), lambda: stats.cauchy(LOC, SCALE), X,
               ['log_prob', 'cdf', 'icdf', 'entropy']),
    'Chisquare': (lambda: D.Chisquare(POS), lambda: stats.chi2(POS), XPOS,
                  ['log_prob', 'mean', 'variance', 'entropy']),
    'Geometric': (lambda: D.Geometric(PROB), lambda: stats.geom(PROB), XINT + 1,
                  ['log_prob', 'mean', 'variance']),
    'Gumbel': (lambda: D.Gumbel(LOC, SCALE), lambda: stats.gumbel_r(LOC, SCALE), X,
               ['log_prob', 'mean', 'variance', 'entropy']),
    'Pareto': (lambda: D.Pareto(SCALE, POS + 2), lambda: stats.pareto(POS + 2, scale=SCALE),
               XPOS + 2.5, ['log_prob', 'mean', 'variance', 'entropy']),
    'Poisson': (lambda: D.Poisson(POS), lambda: stats.poisson(POS), XINT,
                ['log_prob', 'mean', 'variance']),
}

SCIPY_NAME = {
    'log_prob': 'logpdf', 'prob': 'pdf', 'cdf': 'cdf', 'log_cdf': 'logcdf',
    'survival_function': 'sf', 'log_survival_function': 'logsf', 'icdf': 'ppf',
    'mean': 'mean', 'variance': 'var', 'stddev': 'std', 'entropy': 'entropy',
}
DISCRETE = {'Bernoulli', 'BernoulliLogit', 'Geometric', 'Poisson'}


def _cases():
    for name, (_, _, _, methods) in sorted(CASES.items()):
        for method in methods:
            yield name, method


@pytest.mark.parametrize('name, method', list(_cases()))
def test_against_scipy(name, method):
    make, make_ref, points, _ = CASES[name]
    dist, ref = make(), make_ref()
    scipy_name = SCIPY_NAME[method]
    if name in DISCRETE:
        scipy_name = scipy_name.replace('pdf', 'pmf')
    if method == 'icdf':
        points = XUNIT
    attr = getattr(dist, method)
    if callable(attr):
        actual = attr(points)
        expected = getattr(ref, scipy_name)(points)
    else:
        actual = attr
        expected = getattr(ref, scipy_name)()
    assert isinstance(actual, minichainer.Variable)
    assert actual.dtype == np.float32
    np.testing.assert_allclose(actual.array, expected, rtol=1e-4, atol=1e-5)


@pytest.mark.filterwarnings('ignore:invalid value:RuntimeWarning')
def test_outside_support_has_zero_density():
    assert D.Uniform(low=LOC, high=LOC + 1).log_prob(LOC - 1).array.tolist() == [-np.inf] * 3
    assert np.all(D.Exponential(POS).log_prob(-POS).array == -np.inf)
    assert np.all(D.Gamma(POS, SCALE).log_prob(-POS).array == -np.inf)
    assert np.all(D.Beta(POS, SCALE).log_prob(POS + 1).array == -np.inf)
    assert np.all(D.Pareto(SCALE, POS).log_prob(SCALE / 2).array == -np.inf)


def test_pareto_infinite_moments():
    dist = D.Pareto(np.array([1., 1.], f), np.array([0.5, 1.5], f))
    assert np.isinf(dist.mean.array[0]) and np.isfinite(dist.mean.array[1])
    assert np.all(np.isinf(dist.variance.array))


def test_cauchy_mean_and_variance_warn_and_are_nan():
    dist = D.Cauchy(LOC, SCALE)
    with pytest.warns(RuntimeWarning, match='undefined'):
        assert np.all(np.isnan(dist.mean.array))
    with pytest.warns(RuntimeWarning, match='undefined'):
        assert np.all(np.isnan(dist.variance.array))


def test_bernoulli_binary_check():
    x = np.array([0.0, 0.5, 1.0], f)
    checked = D.Bernoulli(PROB, binary_check=True)
    assert checked.log_prob(x).array[1] == -np.inf
    assert checked.prob(x).array[1] == 0
    unchecked = D.Bernoulli(PROB)
    assert np.isfinite(unchecked.log_prob(x).array).all()


def test_bernoulli_infinite_logit():
    dist = D.Bernoulli(logit=np.array([np.inf, -np.inf], f))
    with np.errstate(divide='ignore'):
        np.testing.assert_array_equal(dist.log_prob(np.array([1., 1.], f)).array,
                                      [0., -np.inf])
        np.testing.assert_array_equal(dist.log_prob(np.array([0., 0.], f)).array,
                                      [-np.inf, 0.])


def test_categorical_vs_scipy_multinomial():
    p = np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], f)
    x = np.array([[2, 0], [1, 1], [0, 2]], np.int32)    # sample_shape (3,), batch (2,)
    for dist in (D.Categorical(p), D.Categorical(logit=np.log(p))):
        assert dist.batch_shape == (2,) and dist.event_shape == ()
        expected = np.log(p[np.arange(2), x])
        np.testing.assert_allclose(dist.log_prob(x).array, expected, rtol=1e-5)
        np.testing.assert_allclose(
            dist.entropy.array, [stats.entropy(row) for row in p], rtol=1e-5)


def test_one_hot_categorical():
    p = np.array([[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]], f)
    dist = D.OneHotCategorical(p)
    assert dist.batch_shape == (2,) and dist.event_shape == (3,)
    x = np.eye(3, dtype=f)[[[2, 0], [1, 1]]]
    np.testing.assert_allclose(dist.log_prob(x).array,
                               [[np.log(.5), np.log(.6)], [np.log(.3), np.log(.3)]], rtol=1e-5)
    np.testing.assert_allclose(dist.variance.array, p * (1 - p))


def test_dirichlet():
    alpha = np.array([[1.0, 2.0, 3.0], [0.5, 0.7, 2.0]], f)
    x = np.array([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]], f)
    dist = D.Dirichlet(alpha)
    for i in range(2):
        ref = stats.dirichlet(alpha[i])
        np.testing.assert_allclose(dist.log_prob(x).array[i], ref.logpdf(x[i]), rtol=1e-5)
        np.testing.assert_allclose(dist.entropy.array[i], ref.entropy(), rtol=1e-5)
        np.testing.assert_allclose(dist.mean.array[i], ref.mean(), rtol=1e-5)
        np.testing.assert_allclose(dist.variance.array[i], ref.var(), rtol=1e-5)


def test_multivariate_normal():
    loc = np.array([[0.0, 1.0], [-1.0, 0.5]], f)
    tril = np.array([[[1.0, 0.0], [0.5, 2.0]], [[0.3, 0.0], [-0.2, 0.8]]], f)
    x = np.array([[[0.1, 0.2], [1.0, -1.0]], [[2.0, 1.0], [0.0, 0.0]]], f)  # (2, 2, 2)
    dist = D.MultivariateNormal(loc, scale_tril=tril)
    assert dist.batch_shape == (2,) and dist.event_shape == (2,) and dist.d == 2
    cov = tril @ tril.transpose(0, 2, 1)
    np.testing.assert_allclose(dist.covariance.array, cov, rtol=1e-6)
    for i in range(2):
        ref = stats.multivariate_normal(loc[i], cov[i])
        np.testing.assert_allclose(dist.log_prob(x).array[:, i], ref.logpdf(x[:, i]),
                                   rtol=1e-5)
        np.testing.assert_allclose(dist.entropy.array[i], ref.entropy(), rtol=1e-5)
