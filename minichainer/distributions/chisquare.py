"""Chi-square distribution (`chainer.distributions.Chisquare`)."""
import math

import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils

_LOG2 = math.log(2.0)


class Chisquare(dutils.ScalarDistribution, distribution.Distribution):
    """Chi-square distribution with `k` degrees of freedom."""

    _param_names = ('k',)
    _support = 'positive'

    def __init__(self, k):
        self._k_in = dutils.check_param('Chisquare', 'k', k)

    k = dutils.param('k')

    @dutils.cached_property
    def _half_k(self):
        return 0.5 * self.k

    @dutils.cached_property
    def mean(self):
        return self.k

    @dutils.cached_property
    def variance(self):
        return 2 * self.k

    @dutils.cached_property
    def entropy(self):
        h = self._half_k
        return h + _LOG2 + F.lgamma(h) + (1 - h) * F.digamma(h)

    def log_prob(self, x):
        h = self._half_k
        return -F.lgamma(h) - h * _LOG2 + (h - 1) * F.log(x) - 0.5 * x

    def sample_n(self, n):
        return variable.Variable(dutils.draw_given(numpy.random.chisquare, self.k, n))
