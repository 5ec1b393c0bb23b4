"""Gumbel distribution (`chainer.distributions.Gumbel`)."""
import math

import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer.distributions import utils as dutils

EULER = 0.5772156649015329


class Gumbel(dutils.ScalarDistribution, distribution.Distribution):
    """Gumbel (type-I extreme value) distribution with location `loc` and scale `scale`."""

    _param_names = ('loc', 'scale')
    _support = 'real'

    def __init__(self, loc, scale):
        self._loc_in = dutils.check_param('Gumbel', 'loc', loc)
        self._scale_in = dutils.check_param('Gumbel', 'scale', scale)

    loc = dutils.param('loc')
    scale = dutils.param('scale')

    @dutils.cached_property
    def _log_scale(self):
        return F.log(self.scale)

    @dutils.cached_property
    def mean(self):
        return self.loc + EULER * self.scale

    @dutils.cached_property
    def variance(self):
        return math.pi ** 2 / 6 * self.scale ** 2

    @dutils.cached_property
    def entropy(self):
        return self._log_scale + (EULER + 1)

    def log_prob(self, x):
        z = (x - self.loc) / self.scale
        return -self._log_scale - z - F.exp(-z)

    def sample_n(self, n):
        loc = self.loc
        eps = dutils.draw(numpy.random.gumbel, (n,) + loc.shape, loc.dtype)
        return self.scale * eps + loc


@distribution.register_kl(Gumbel, Gumbel)
def _kl_gumbel_gumbel(dist1, dist2):
    ratio = dist1.scale / dist2.scale
    shift = (dist2.loc - dist1.loc) / dist2.scale
    return (dist2._log_scale - dist1._log_scale + EULER * (ratio - 1.0)
            + F.exp(shift + F.lgamma(ratio + 1.0)) - 1 - shift)
