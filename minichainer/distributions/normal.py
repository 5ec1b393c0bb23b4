"""Normal (Gaussian) distribution (`chainer.distributions.Normal`)."""
import math

import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils
from minichainer.utils import argument

# Normalizing constants, named as in Chainer.
LOGPROBC = -0.5 * math.log(2 * math.pi)
ENTROPYC = 0.5 * math.log(2 * math.pi * math.e)
PROBC = 1.0 / math.sqrt(2 * math.pi)


class Normal(dutils.ScalarDistribution, distribution.Distribution):
    """Normal distribution `N(loc, scale^2)`, elementwise over `loc`'s shape.

    Args:
        loc (Variable or ndarray): mean μ.
        scale (Variable or ndarray): standard deviation σ.
        log_scale (Variable or ndarray): keyword-only alternative to
            `scale` giving log σ; exactly one of the two is required.

    Samples are reparameterized (`loc + scale * eps`), so gradients reach
    `loc` and `scale`.
    """

    _param_names = ('loc', 'scale')
    _support = 'real'

    def __init__(self, loc, scale=None, **kwargs):
        log_scale = None
        if kwargs:
            log_scale, = argument.parse_kwargs(kwargs, ('log_scale', None))
        dutils.exclusive('Normal', scale=scale, log_scale=log_scale)
        self._loc_in = dutils.check_param('Normal', 'loc', loc)
        self._scale_in = dutils.check_param('Normal', 'scale', scale, optional=True)
        self._log_scale_in = dutils.check_param(
            'Normal', 'log_scale', log_scale, optional=True)

    loc = dutils.param('loc')

    @dutils.cached_property
    def scale(self):
        if self._scale_in is None:
            return F.exp(self.log_scale)
        return variable.as_variable(self._scale_in)

    @dutils.cached_property
    def log_scale(self):
        if self._log_scale_in is None:
            return F.log(self.scale)
        return variable.as_variable(self._log_scale_in)

    @dutils.cached_property
    def mean(self):
        return self.loc

    @dutils.cached_property
    def stddev(self):
        return self.scale

    @dutils.cached_property
    def variance(self):
        return self.scale ** 2

    @dutils.cached_property
    def entropy(self):
        return self.log_scale + ENTROPYC

    def _standardize(self, x):
        return (x - self.loc) / self.scale

    def log_prob(self, x):
        return LOGPROBC - self.log_scale - 0.5 * (x - self.loc) ** 2 / self.variance

    def prob(self, x):
        return (PROBC / self.scale) * F.exp(-0.5 * (x - self.loc) ** 2 / self.variance)

    def cdf(self, x):
        return F.ndtr(self._standardize(x))

    def log_cdf(self, x):
        return F.log_ndtr(self._standardize(x))

    def survival_function(self, x):
        return F.ndtr((self.loc - x) / self.scale)

    def log_survival_function(self, x):
        return F.log_ndtr((self.loc - x) / self.scale)

    def icdf(self, x):
        return self.loc + self.scale * F.ndtri(x)

    def sample_n(self, n):
        loc = self.loc
        eps = dutils.draw(numpy.random.standard_normal, (n,) + loc.shape, loc.dtype)
        return loc + self.scale * eps


@distribution.register_kl(Normal, Normal)
def _kl_normal_normal(dist1, dist2):
    return (dist2.log_scale - dist1.log_scale
            + 0.5 * (dist1.variance + (dist1.loc - dist2.loc) ** 2) / dist2.variance
            - 0.5)
