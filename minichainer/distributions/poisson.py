"""Poisson distribution (`chainer.distributions.Poisson`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import utils
from minichainer import variable
from minichainer.distributions import utils as dutils


class Poisson(dutils.RateDistribution, distribution.Distribution):
    """Poisson distribution with rate `lam` over the non-negative integers."""

    _owner = 'Poisson'
    _support = 'non negative integer'

    @dutils.cached_property
    def mean(self):
        return self.lam

    @dutils.cached_property
    def variance(self):
        return self.lam

    def log_prob(self, x):
        dtype = self.lam.dtype
        x = utils.force_array(dutils.array_of(x), dtype)
        return x * self._log_lam - F.lgamma(utils.force_array(x + 1, dtype)) - self.lam

    def sample_n(self, n):
        return variable.Variable(
            dutils.draw_given(numpy.random.poisson, self.lam, n, numpy.float32))


@distribution.register_kl(Poisson, Poisson)
def _kl_poisson_poisson(dist1, dist2):
    return dist1.lam * (dist1._log_lam - dist2._log_lam) - dist1.lam + dist2.lam
