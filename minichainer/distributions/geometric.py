"""Geometric distribution (`chainer.distributions.Geometric`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils


class Geometric(dutils.ScalarDistribution, distribution.Distribution):
    """Number of Bernoulli(`p`) trials up to and including the first success (1, 2, ...)."""

    _param_names = ('p',)
    _support = 'positive integer'

    def __init__(self, p):
        self._p_in = dutils.check_param('Geometric', 'p', p)

    p = dutils.param('p')

    @dutils.cached_property
    def mean(self):
        return 1 / self.p

    @dutils.cached_property
    def variance(self):
        return (1 - self.p) / self.p ** 2

    def log_prob(self, x):
        return (x - 1) * F.log(1 - self.p) + F.log(self.p)

    def sample_n(self, n):
        return variable.Variable(dutils.draw_given(numpy.random.geometric, self.p, n))


@distribution.register_kl(Geometric, Geometric)
def _kl_geometric_geometric(dist1, dist2):
    return ((1 / dist1.p - 1) * (F.log(1 - dist1.p) - F.log(1 - dist2.p))
            + F.log(dist1.p) - F.log(dist2.p))
