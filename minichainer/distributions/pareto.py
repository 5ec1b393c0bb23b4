"""Pareto distribution (`chainer.distributions.Pareto`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils


class Pareto(dutils.ScalarDistribution, distribution.Distribution):
    """Pareto distribution: density `alpha scale^alpha / x^(alpha + 1)` for `x >= scale`."""

    _param_names = ('scale', 'alpha')
    _support = '[scale, inf]'

    def __init__(self, scale, alpha):
        self._scale_in = dutils.check_param('Pareto', 'scale', scale)
        self._alpha_in = dutils.check_param('Pareto', 'alpha', alpha)

    scale = dutils.param('scale')
    alpha = dutils.param('alpha')

    @dutils.cached_property
    def _log_scale(self):
        return F.log(self.scale)

    @dutils.cached_property
    def _log_alpha(self):
        return F.log(self.alpha)

    @dutils.cached_property
    def mean(self):
        mean = self.alpha * self.scale / (self.alpha - 1)
        return dutils.where_else(self.alpha.array > 1, mean, numpy.inf)

    @dutils.cached_property
    def variance(self):
        alpha = self.alpha
        var = self.scale ** 2 * alpha / (alpha - 1) ** 2 / (alpha - 2)
        return dutils.where_else(alpha.array > 2, var, numpy.inf)

    @dutils.cached_property
    def entropy(self):
        return -self._log_alpha + self._log_scale + 1.0 / self.alpha + 1.0

    def log_prob(self, x):
        x = variable.as_variable(x)
        log_density = (self._log_alpha + self.alpha * self._log_scale
                       - (self.alpha + 1) * F.log(x))
        return dutils.where_else(x.array >= self.scale.array, log_density, -numpy.inf)

    def sample_n(self, n):
        alpha = self.alpha
        eps = dutils.draw(numpy.random.pareto, (n,) + self.batch_shape, alpha.dtype,
                          alpha.array)
        return self.scale * (eps + 1)


@distribution.register_kl(Pareto, Pareto)
def _kl_pareto_pareto(dist1, dist2):
    kl = (dist2.alpha * (dist1._log_scale - dist2._log_scale)
          + dist1._log_alpha - dist2._log_alpha
          + (dist2.alpha - dist1.alpha) / dist1.alpha)
    return dutils.where_else(dist1.scale.array >= dist2.scale.array, kl, numpy.inf)
