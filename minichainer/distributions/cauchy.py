"""Cauchy distribution (`chainer.distributions.Cauchy`)."""
import math
import warnings

import numpy

from minichainer import backend
from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils


def _cauchy_icdf(x):
    return F.tan((variable.as_variable(x) - 0.5) * math.pi)


class Cauchy(dutils.ScalarDistribution, distribution.Distribution):
    """Cauchy distribution: density `1 / (pi scale (1 + ((x - loc) / scale)^2))`.

    Its mean and variance are undefined: they are NaN (with a `RuntimeWarning`).
    """

    _param_names = ('loc', 'scale')
    _support = 'real'

    def __init__(self, loc, scale):
        self._loc_in = dutils.check_param('Cauchy', 'loc', loc)
        self._scale_in = dutils.check_param('Cauchy', 'scale', scale)

    loc = dutils.param('loc')
    scale = dutils.param('scale')

    def _undefined(self, what):
        warnings.warn('{} of the cauchy distribution is undefined.'.format(what),
                      RuntimeWarning)
        xp = backend.get_array_module(self.loc.array)
        return variable.as_variable(xp.full_like(self.loc.array, numpy.nan))

    @dutils.cached_property
    def mean(self):
        return self._undefined('Mean')

    @dutils.cached_property
    def variance(self):
        return self._undefined('Variance')

    @dutils.cached_property
    def entropy(self):
        return F.log(4 * math.pi * self.scale)

    def cdf(self, x):
        return F.arctan((x - self.loc) / self.scale) / math.pi + 0.5

    def icdf(self, x):
        return self.loc + self.scale * _cauchy_icdf(x)

    def log_prob(self, x):
        return (F.log(self.scale) - math.log(math.pi)
                - F.log((x - self.loc) ** 2 + self.scale ** 2))

    def sample_n(self, n):
        loc = self.loc
        eps = dutils.draw(numpy.random.standard_cauchy, (n,) + loc.shape, loc.dtype)
        return self.scale * eps + loc
