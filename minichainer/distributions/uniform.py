"""Continuous uniform distribution (`chainer.distributions.Uniform`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils
from minichainer.utils import argument


class Uniform(distribution.Distribution):
    """Uniform distribution on `[low, high]` (equivalently `[loc, loc + scale]`).

    Keyword-only arguments: either `low` and `high`, or `loc` and `scale`
    (Variable or ndarray).
    """

    def __init__(self, **kwargs):
        low, high, loc, scale = argument.parse_kwargs(
            kwargs, ('low', None), ('high', None), ('loc', None), ('scale', None))
        self._use_low_high = low is not None and high is not None
        self._use_loc_scale = loc is not None and scale is not None
        if self._use_low_high == self._use_loc_scale:
            raise ValueError('Uniform: either `low, high` or `loc, scale` (not both) must '
                             'have a value')
        self._inputs = {}
        for name, value in (('low', low), ('high', high), ('loc', loc), ('scale', scale)):
            self._inputs[name] = dutils.check_param('Uniform', name, value, optional=True)

    @dutils.cached_property
    def low(self):
        if self._use_low_high:
            return variable.as_variable(self._inputs['low'])
        return self.loc

    @dutils.cached_property
    def high(self):
        if self._use_low_high:
            return variable.as_variable(self._inputs['high'])
        return self.loc + self.scale

    @dutils.cached_property
    def loc(self):
        if self._use_loc_scale:
            return variable.as_variable(self._inputs['loc'])
        return self.low

    @dutils.cached_property
    def scale(self):
        if self._use_loc_scale:
            return variable.as_variable(self._inputs['scale'])
        return self.high - self.low

    @property
    def batch_shape(self):
        return self.low.shape

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        if self._use_low_high:
            return {'low': self.low, 'high': self.high}
        return {'loc': self.loc, 'scale': self.scale}

    @property
    def support(self):
        return '[low, high]'

    @dutils.cached_property
    def mean(self):
        return (self.high + self.low) / 2

    @dutils.cached_property
    def variance(self):
        return self.scale ** 2 / 12

    @dutils.cached_property
    def stddev(self):
        return F.sqrt(self.variance)

    @dutils.cached_property
    def entropy(self):
        return F.log(self.scale)

    def cdf(self, x):
        return F.clip((x - self.loc) / self.scale, 0.0, 1.0)

    def icdf(self, x):
        return x * self.scale + self.loc

    def log_prob(self, x):
        x = variable.as_variable(x)
        inside = (x.array >= self.low.array) & (x.array <= self.high.array)
        log_density = F.broadcast_to(-F.log(self.scale), inside.shape)
        return dutils.where_else(inside, log_density, -numpy.inf)

    def sample_n(self, n):
        low = self.low
        eps = dutils.draw(numpy.random.uniform, (n,) + low.shape, low.dtype, 0, 1)
        return self.icdf(eps)


@distribution.register_kl(Uniform, Uniform)
def _kl_uniform_uniform(dist1, dist2):
    inside = (dist1.high.array <= dist2.high.array) & (dist1.low.array >= dist2.low.array)
    kl = F.log(dist2.high - dist2.low) - F.log(dist1.high - dist1.low)
    return dutils.where_else(inside, kl, numpy.inf)
