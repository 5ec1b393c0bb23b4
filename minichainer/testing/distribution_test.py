"""`distribution_unittest`: a test-case base class checking a distribution against SciPy.

A concrete test case subclasses
[`distribution_unittest`][minichainer.testing.distribution_test.distribution_unittest] and defines
`setUp_configure(self)`, which sets

* `self.dist`: the distribution class; `self.params`: its constructor arguments
  (ndarrays; wrapped in Variables when `self.is_variable`); `self.options`: extra
  non-array constructor arguments (optional);
* `self.scipy_dist` (e.g. `scipy.stats.norm`) and `self.scipy_params`: the same
  distribution in SciPy;
* `self.test_targets`: the set of checks to run (see `_TARGETS`);
* `self.shape` (batch shape), `self.sample_shape`, and optionally
  `self.event_shape`, `self.support`, `self.continuous` (False uses
  `logpmf`/`pmf`) and `self.scipy_onebyone` (call SciPy once per batch element,
  for multivariate SciPy distributions);

and a method `sample_for_test()` returning points of shape
`sample_shape + shape + event_shape` at which densities are compared.
Every check is a `test_<target>_cpu` method; checks not in `test_targets` are
skipped.  The test module needs SciPy; this module itself does not import it.
"""
import functools
import unittest

import numpy

from minichainer import variable
from minichainer.testing import array as array_module
from minichainer.utils import size_of_shape

_TARGETS = frozenset([
    'batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_cdf', 'log_prob',
    'log_survival', 'mean', 'prob', 'sample', 'stddev', 'support', 'survival',
    'variance'])

_N_SAMPLES = 100000


def _only_if_target(target):
    def decorate(check):
        @functools.wraps(check)
        def test(self):
            if target not in self.test_targets:
                self.skipTest('{!r} is not in test_targets'.format(target))
            check(self)
        return test
    return decorate


def _data(x):
    return x.array if isinstance(x, variable.Variable) else x


class distribution_unittest(unittest.TestCase):  # noqa: N801 (Chainer's name)
    """Base test case comparing a minichainer distribution with a `scipy.stats` one."""

    scipy_onebyone = False

    def setUp(self):
        self.support = 'real'
        if not hasattr(self, 'event_shape'):
            self.event_shape = ()
        self.continuous = True
        self.test_targets = set()
        self.options = {}
        self.setUp_configure()
        unknown = set(self.test_targets) - _TARGETS
        if unknown:
            raise ValueError('invalid target(s): {}'.format(sorted(unknown)))
        if self.is_variable:
            self.params = {name: variable.Variable(value)
                           for name, value in self.params.items()}

    # construction -------------------------------------------------------------------
    @property
    def cpu_dist(self):
        kwargs = dict(self.params)
        kwargs.update(self.options)
        return self.dist(**kwargs)

    def scipy_onebyone_params_iter(self):
        """SciPy parameters of each batch element, in row-major order."""
        for index in numpy.ndindex(*self.shape):
            yield {name: value[index] for name, value in self.scipy_params.items()}

    def _scipy_per_element(self, method, result_shape):
        values = [method(**params) for params in self.scipy_onebyone_params_iter()]
        return numpy.asarray(values).reshape(result_shape)

    def _scipy_stat(self, name, result_shape):
        method = getattr(self.scipy_dist, name)
        if self.scipy_onebyone:
            return self._scipy_per_element(method, result_shape)
        return method(**self.scipy_params)

    # shapes and support -------------------------------------------------------------
    @_only_if_target('batch_shape')
    def test_batch_shape_cpu(self):
        self.assertEqual(self.cpu_dist.batch_shape, self.shape)

    @_only_if_target('event_shape')
    def test_event_shape_cpu(self):
        self.assertEqual(self.cpu_dist.event_shape, self.event_shape)

    @_only_if_target('support')
    def test_support_cpu(self):
        self.assertEqual(self.cpu_dist.support, self.support)

    @property
    def gpu_dist(self):
        raise unittest.SkipTest('minichainer has no GPU backend')

    def _dist(self, is_gpu):
        return self.gpu_dist if is_gpu else self.cpu_dist

    # statistics ---------------------------------------------------------------------
    # Each ``test_<target>_cpu`` calls ``check_<target>(is_gpu=False)``, which a test
    # case may override (as Chainer's tests do).
    def check_entropy(self, is_gpu):
        expected = self._scipy_stat('entropy', self.shape)
        array_module.assert_allclose(self._dist(is_gpu).entropy.array, expected)

    def check_mean(self, is_gpu):
        dist = self._dist(is_gpu)
        expected = self._scipy_stat('mean', self.shape + dist.event_shape)
        array_module.assert_allclose(dist.mean.array, expected)

    def check_variance(self, is_gpu):
        dist = self._dist(is_gpu)
        expected = self._scipy_stat('var', self.shape + dist.event_shape)
        array_module.assert_allclose(dist.variance.array, expected)

    def check_stddev(self, is_gpu):
        expected = self.scipy_dist.std(**self.scipy_params)
        array_module.assert_allclose(self._dist(is_gpu).stddev.array, expected)

    # functions of a sample ----------------------------------------------------------
    def _compare_at_sample(self, is_gpu, method, scipy_name):
        points = self.sample_for_test()
        actual = _data(getattr(self._dist(is_gpu), method)(points))
        expected = getattr(self.scipy_dist, scipy_name)(points, **self.scipy_params)
        array_module.assert_allclose(actual, expected)

    def check_cdf(self, is_gpu):
        self._compare_at_sample(is_gpu, 'cdf', 'cdf')

    def check_log_cdf(self, is_gpu):
        self._compare_at_sample(is_gpu, 'log_cdf', 'logcdf')

    def check_survival(self, is_gpu):
        self._compare_at_sample(is_gpu, 'survival_function', 'sf')

    def check_log_survival(self, is_gpu):
        self._compare_at_sample(is_gpu, 'log_survival_function', 'logsf')

    def check_prob(self, is_gpu):
        self._compare_at_sample(is_gpu, 'prob', 'pdf' if self.continuous else 'pmf')

    def check_icdf(self, is_gpu):
        q = numpy.random.uniform(1e-5, 1 - 1e-5, self.sample_shape + self.shape)
        q = q.astype(numpy.float32)
        actual = self._dist(is_gpu).icdf(q).array
        array_module.assert_allclose(actual, self.scipy_dist.ppf(q, **self.scipy_params))

    def check_log_prob(self, is_gpu):
        points = self.sample_for_test()
        actual = self._dist(is_gpu).log_prob(points).array
        logp = self.scipy_dist.logpdf if self.continuous else self.scipy_dist.logpmf
        if not self.scipy_onebyone:
            expected = logp(points, **self.scipy_params)
        else:
            # Regroup the points per batch element: (batch, sample..., event...).
            n_sample = size_of_shape(self.sample_shape)
            n_batch = size_of_shape(self.shape)
            per_elem = points.reshape((n_sample, n_batch) + tuple(self.event_shape))
            per_elem = numpy.swapaxes(per_elem, 0, 1).reshape(
                (n_batch,) + self.sample_shape + tuple(self.event_shape))
            values = [logp(pts, **params) for params, pts in
                      zip(self.scipy_onebyone_params_iter(), per_elem)]
            expected = numpy.asarray(values).reshape(n_batch, n_sample).T.reshape(
                self.sample_shape + self.shape)
        array_module.assert_allclose(actual, expected)

    def check_sample(self, is_gpu):
        dist = self._dist(is_gpu)
        leading = (_N_SAMPLES,) + self.sample_shape
        ours = _data(dist.sample(sample_shape=leading))
        event = dist.event_shape
        if self.scipy_onebyone:
            per_elem = [self.scipy_dist.rvs(size=leading, **params)
                        for params in self.scipy_onebyone_params_iter()]
            # (batch, leading..., event...) -> (leading..., batch..., event...)
            theirs = numpy.asarray(per_elem).reshape(
                (size_of_shape(self.shape),) + leading + event)
            theirs = numpy.moveaxis(theirs, 0, len(leading))
            theirs = theirs.reshape(leading + self.shape + event)
        else:
            theirs = self.scipy_dist.rvs(size=leading + self.shape, **self.scipy_params)
        array_module.assert_allclose(ours.mean(axis=0), theirs.mean(axis=0),
                                     atol=3e-2, rtol=3e-2)
        array_module.assert_allclose(ours.std(axis=0), theirs.std(axis=0),
                                     atol=3e-2, rtol=3e-2)


def _add_cpu_tests():
    for target in ('cdf', 'entropy', 'icdf', 'log_cdf', 'log_prob', 'log_survival', 'mean',
                   'prob', 'sample', 'stddev', 'survival', 'variance'):
        def test(self, _check='check_' + target):
            getattr(self, _check)(False)
        test.__name__ = 'test_{}_cpu'.format(target)
        test.__qualname__ = 'distribution_unittest.' + test.__name__
        setattr(distribution_unittest, test.__name__, _only_if_target(target)(test))


_add_cpu_tests()
