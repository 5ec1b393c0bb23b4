"""Laplace distribution (`chainer.distributions.Laplace`)."""
import math

import numpy

from minichainer import backend
from minichainer import distribution
from minichainer import function_node
from minichainer import functions as F
from minichainer import utils
from minichainer.distributions import utils as dutils
from minichainer.utils import type_check


class LaplaceCDF(function_node.FunctionNode):
    """CDF of the standard Laplace distribution, `0.5 - 0.5 sign(x) expm1(-|x|)`."""

    @property
    def label(self):
        return 'laplace_cdf'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        return utils.force_array(0.5 - 0.5 * xp.sign(x) * xp.expm1(-abs(x)), x.dtype),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        # density = min(cdf, 1 - cdf) = 0.5 - |cdf - 0.5|
        return (0.5 - abs(y - 0.5)) * gy,


class LaplaceICDF(function_node.FunctionNode):
    """Inverse CDF of the standard Laplace distribution."""

    @property
    def label(self):
        return 'laplace_icdf'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        h = 1 - 2 * x
        return utils.force_array(xp.sign(h) * xp.log1p(-abs(h)), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy / (0.5 - abs(x - 0.5)),


def _laplace_cdf(x):
    return LaplaceCDF().apply((x,))[0]


def _laplace_icdf(x):
    return LaplaceICDF().apply((x,))[0]


class Laplace(dutils.ScalarDistribution, distribution.Distribution):
    """Laplace distribution: density `exp(-|x - loc| / scale) / (2 scale)`.

    Args:
        loc (Variable or ndarray): location.
        scale (Variable or ndarray): scale (> 0).
    """

    _param_names = ('loc', 'scale')
    _support = 'real'

    def __init__(self, loc, scale):
        self._loc_in = dutils.check_param('Laplace', 'loc', loc)
        self._scale_in = dutils.check_param('Laplace', 'scale', scale)

    loc = dutils.param('loc')
    scale = dutils.param('scale')

    @dutils.cached_property
    def mean(self):
        return self.loc

    @dutils.cached_property
    def mode(self):
        return self.loc

    @dutils.cached_property
    def variance(self):
        return 2 * self.scale ** 2

    @dutils.cached_property
    def stddev(self):
        return math.sqrt(2) * self.scale

    @dutils.cached_property
    def entropy(self):
        return 1.0 + F.log(2 * self.scale)

    def cdf(self, x):
        return _laplace_cdf((x - self.loc) / self.scale)

    def icdf(self, x):
        return self.loc + self.scale * _laplace_icdf(x)

    def log_prob(self, x):
        return -F.log(2 * self.scale) - abs(x - self.loc) / self.scale

    def prob(self, x):
        return 0.5 / self.scale * F.exp(-abs(x - self.loc) / self.scale)

    def sample_n(self, n):
        loc = self.loc
        eps = dutils.draw(numpy.random.laplace, (n,) + loc.shape, loc.dtype)
        return self.scale * eps + loc


@distribution.register_kl(Laplace, Laplace)
def _kl_laplace_laplace(dist1, dist2):
    diff = abs(dist1.loc - dist2.loc)
    ratio = dist1.scale / dist2.scale
    return (F.log(dist2.scale) - F.log(dist1.scale) + diff / dist2.scale
            + ratio * F.exp(-diff / dist1.scale) - 1)
