"""Beta distribution (`chainer.distributions.Beta`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils


def _lbeta(a, b):
    return F.lgamma(a) + F.lgamma(b) - F.lgamma(a + b)


class Beta(dutils.ScalarDistribution, distribution.Distribution):
    """Beta distribution on `[0, 1]`: density `x^(a-1) (1-x)^(b-1) / B(a, b)`.

    Args:
        a (Variable or ndarray): first shape parameter (> 0).
        b (Variable or ndarray): second shape parameter (> 0).
    """

    _param_names = ('a', 'b')
    _support = '[0, 1]'

    def __init__(self, a, b):
        self._a_in = dutils.check_param('Beta', 'a', a)
        self._b_in = dutils.check_param('Beta', 'b', b)

    a = dutils.param('a')
    b = dutils.param('b')

    @dutils.cached_property
    def _a_plus_b(self):
        return self.a + self.b

    @dutils.cached_property
    def mean(self):
        return self.a / self._a_plus_b

    @dutils.cached_property
    def variance(self):
        total = self._a_plus_b
        return self.a * self.b / total ** 2 / (total + 1)

    @dutils.cached_property
    def entropy(self):
        a, b, total = self.a, self.b, self._a_plus_b
        return (_lbeta(a, b) - (a - 1) * F.digamma(a) - (b - 1) * F.digamma(b)
                + (total - 2) * F.digamma(total))

    def log_prob(self, x):
        x = variable.as_variable(x)
        log_density = ((self.a - 1) * F.log(x) + (self.b - 1) * F.log(1 - x)
                       - _lbeta(self.a, self.b))
        inside = (x.array >= 0) & (x.array <= 1)
        return dutils.where_else(inside, log_density, -numpy.inf)

    def sample_n(self, n):
        a = self.a
        eps = numpy.random.beta(a.array, self.b.array, size=(n,) + a.shape)
        return variable.Variable(eps.astype(a.dtype))


@distribution.register_kl(Beta, Beta)
def _kl_beta_beta(dist1, dist2):
    total1 = dist1._a_plus_b
    return (_lbeta(dist2.a, dist2.b) - _lbeta(dist1.a, dist1.b)
            + (dist1.a - dist2.a) * F.digamma(dist1.a)
            + (dist1.b - dist2.b) * F.digamma(dist1.b)
            + (dist2._a_plus_b - total1) * F.digamma(total1))
