"""testing.distribution_unittest: runs the selected checks against scipy.stats."""
import unittest

import numpy as np
import pytest

import minichainer.distributions as D
from minichainer import testing

pytest.importorskip('scipy.stats')


def _make_case(dist_class, targets, scale_factor=1.0):
    class Case(testing.distribution_unittest):
        shape = (2,)
        sample_shape = (3,)
        is_variable = True
        scipy_onebyone = True

        def setUp_configure(self):
            from scipy import stats
            self.dist = dist_class
            self.scipy_dist = stats.norm
            self.test_targets = set(targets)
            loc = np.array([0.0, 1.0], np.float32)
            scale = np.array([1.0, 2.0], np.float32)
            self.params = {'loc': loc, 'scale': scale * np.float32(scale_factor)}
            self.scipy_params = {'loc': loc, 'scale': scale}

        def sample_for_test(self):
            return np.random.normal(size=self.sample_shape + self.shape).astype(np.float32)

    return Case


def _run(case):
    suite = unittest.defaultTestLoader.loadTestsFromTestCase(case)
    result = unittest.TestResult()
    suite.run(result)
    return result


ALL = ['batch_shape', 'cdf', 'entropy', 'event_shape', 'icdf', 'log_cdf', 'log_prob',
       'log_survival', 'mean', 'prob', 'sample', 'stddev', 'support', 'survival', 'variance']


def test_correct_distribution_passes_every_check():
    result = _run(_make_case(D.Normal, ALL))
    assert result.testsRun == 15
    assert not result.failures and not result.errors and not result.skipped


def test_wrong_distribution_fails_value_checks():
    result = _run(_make_case(D.Normal, ALL, scale_factor=1.5))
    failed = {test._testMethodName for test, _ in result.failures}
    assert {'test_log_prob_cpu', 'test_cdf_cpu', 'test_entropy_cpu', 'test_stddev_cpu',
            'test_variance_cpu', 'test_icdf_cpu', 'test_sample_cpu'} <= failed
    assert 'test_batch_shape_cpu' not in failed and 'test_mean_cpu' not in failed


def test_targets_not_listed_are_skipped_and_unknown_targets_rejected():
    result = _run(_make_case(D.Normal, ['mean']))
    assert len(result.skipped) == 14 and not result.failures
    result = _run(_make_case(D.Normal, ['mean', 'median']))
    assert result.errors and 'invalid target' in result.errors[0][1]


def test_check_methods_can_be_overridden():
    calls = []

    class Case(_make_case(D.Normal, ['log_prob'])):
        def check_log_prob(self, is_gpu):
            calls.append(is_gpu)

    result = _run(Case)
    assert calls == [False] and not result.failures
