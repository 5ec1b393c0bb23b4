"""Gamma distribution (`chainer.distributions.Gamma`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer.distributions import utils as dutils


class Gamma(dutils.ScalarDistribution, distribution.Distribution):
    """Gamma distribution with shape `k` and scale `theta`.

    Density `x^(k-1) exp(-x/theta) / (Gamma(k) theta^k)` for `x >= 0`.  Samples
    are scaled by `theta` differentiably; they do not carry gradients to `k`.
    """

    _param_names = ('k', 'theta')
    _support = 'positive'

    def __init__(self, k, theta):
        self._k_in = dutils.check_param('Gamma', 'k', k)
        self._theta_in = dutils.check_param('Gamma', 'theta', theta)

    k = dutils.param('k')
    theta = dutils.param('theta')

    @dutils.cached_property
    def mean(self):
        return self.k * self.theta

    @dutils.cached_property
    def variance(self):
        return self.mean * self.theta

    @dutils.cached_property
    def entropy(self):
        k = self.k
        return k + F.log(self.theta) + F.lgamma(k) + (1 - k) * F.digamma(k)

    def log_prob(self, x):
        k = self.k
        log_density = (-F.lgamma(k) - k * F.log(self.theta) + (k - 1) * F.log(x)
                       - x / self.theta)
        return dutils.where_else(dutils.array_of(x) >= 0, log_density, -numpy.inf)

    def sample_n(self, n):
        eps = dutils.draw_given(numpy.random.gamma, self.k, n)
        return F.broadcast_to(self.theta, eps.shape) * eps


@distribution.register_kl(Gamma, Gamma)
def _kl_gamma_gamma(dist1, dist2):
    k1, k2 = dist1.k, dist2.k
    return ((k1 - k2) * F.digamma(k1) - (F.lgamma(k1) - F.lgamma(k2))
            + k2 * (F.log(dist2.theta) - F.log(dist1.theta))
            + k1 * (dist1.theta / dist2.theta - 1))
