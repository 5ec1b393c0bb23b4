"""Log-normal distribution (`chainer.distributions.LogNormal`)."""
import math

import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer.distributions import utils as dutils

# Normalizing constants, named as in Chainer.
LOGPROBC = -0.5 * math.log(2 * math.pi)


class LogNormal(dutils.ScalarDistribution, distribution.Distribution):
    """Distribution of `exp(y)` for `y ~ Normal(mu, sigma)`.

    Args:
        mu (Variable or ndarray): mean of `log x`.
        sigma (Variable or ndarray): standard deviation of `log x`.
    """

    _param_names = ('mu', 'sigma')
    _support = 'positive'

    def __init__(self, mu, sigma):
        self._mu_in = dutils.check_param('LogNormal', 'mu', mu)
        self._sigma_in = dutils.check_param('LogNormal', 'sigma', sigma)

    mu = dutils.param('mu')
    sigma = dutils.param('sigma')

    @dutils.cached_property
    def _log_sigma(self):
        return F.log(self.sigma)

    @dutils.cached_property
    def mean(self):
        return F.exp(self.mu + 0.5 * self.sigma ** 2)

    @dutils.cached_property
    def variance(self):
        return F.exp(2 * self.mu + self.sigma ** 2) * (F.exp(self.sigma ** 2) - 1)

    @dutils.cached_property
    def entropy(self):
        return 0.5 - LOGPROBC + self._log_sigma + self.mu

    def log_prob(self, x):
        log_x = F.log(x)
        return (LOGPROBC - self._log_sigma - log_x
                - 0.5 * (log_x - self.mu) ** 2 / self.sigma ** 2)

    def sample_n(self, n):
        mu = self.mu
        eps = dutils.draw(numpy.random.standard_normal, (n,) + mu.shape, mu.dtype)
        return F.exp(self.sigma * eps + mu)


@distribution.register_kl(LogNormal, LogNormal)
def _kl_log_normal_log_normal(dist1, dist2):
    return (0.5 * ((dist1.mu - dist2.mu) ** 2 + dist1.sigma ** 2) / dist2.sigma ** 2
            - 0.5 + dist2._log_sigma - dist1._log_sigma)
