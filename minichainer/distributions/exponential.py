"""Exponential distribution (`chainer.distributions.Exponential`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils


class Exponential(dutils.RateDistribution, distribution.Distribution):
    """Exponential distribution with rate `lam`: density `lam * exp(-lam * x)`, `x >= 0`.

    Args:
        lam (Variable or ndarray): rate parameter.
    """

    _owner = 'Exponential'
    _support = 'positive'

    @dutils.cached_property
    def mean(self):
        return 1 / self.lam

    @dutils.cached_property
    def variance(self):
        return self.mean ** 2

    @dutils.cached_property
    def entropy(self):
        return 1 - self._log_lam

    def cdf(self, x):
        return -F.expm1(-self.lam * x)

    def icdf(self, x):
        return -1 / self.lam * F.log1p(-variable.as_variable(x))

    def log_prob(self, x):
        log_density = self._log_lam - self.lam * x
        return dutils.where_else(dutils.array_of(x) >= 0, log_density, -numpy.inf)

    def sample_n(self, n):
        lam = self.lam
        eps = dutils.draw(numpy.random.standard_exponential, (n,) + lam.shape, lam.dtype)
        return eps / lam


@distribution.register_kl(Exponential, Exponential)
def _kl_exponential_exponential(dist1, dist2):
    return dist1._log_lam - dist2._log_lam + dist2.lam / dist1.lam - 1.0
