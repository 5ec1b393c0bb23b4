"""Dirichlet distribution (`chainer.distributions.Dirichlet`)."""
import numpy

from minichainer import backend
from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils


def _lbeta(alpha):
    return F.sum(F.lgamma(alpha), axis=-1) - F.lgamma(F.sum(alpha, axis=-1))


class Dirichlet(distribution.Distribution):
    """Dirichlet distribution over the simplex, concentration `alpha` on the last axis."""

    def __init__(self, alpha):
        self._alpha_in = dutils.check_param('Dirichlet', 'alpha', alpha)

    alpha = dutils.param('alpha')

    @dutils.cached_property
    def alpha0(self):
        return F.sum(self.alpha, axis=-1)

    @property
    def batch_shape(self):
        return self.alpha.shape[:-1]

    @property
    def event_shape(self):
        return self.alpha.shape[-1:]

    @property
    def params(self):
        return {'alpha': self.alpha}

    @property
    def support(self):
        return '[0, 1]'

    @dutils.cached_property
    def mean(self):
        return self.alpha / F.expand_dims(self.alpha0, axis=-1)

    @dutils.cached_property
    def variance(self):
        alpha0 = F.expand_dims(self.alpha0, axis=-1)
        return self.alpha * (alpha0 - self.alpha) / alpha0 ** 2 / (alpha0 + 1)

    @dutils.cached_property
    def entropy(self):
        alpha, alpha0 = self.alpha, self.alpha0
        return (_lbeta(alpha) + (alpha0 - alpha.shape[-1]) * F.digamma(alpha0)
                - F.sum((alpha - 1) * F.digamma(alpha), axis=-1))

    def log_prob(self, x):
        return -_lbeta(self.alpha) + F.sum((self.alpha - 1) * F.log(x), axis=-1)

    def sample_n(self, n):
        alpha = self.alpha.array
        xp = backend.get_array_module(alpha)
        rows = alpha.reshape(-1, alpha.shape[-1])
        # One batch element after another, n draws each, as Chainer does.
        draws = [numpy.random.dirichlet(row, size=n).astype(alpha.dtype) for row in rows]
        eps = xp.stack(draws, axis=1).reshape((n,) + alpha.shape)
        return variable.Variable(eps)


@distribution.register_kl(Dirichlet, Dirichlet)
def _kl_dirichlet_dirichlet(dist1, dist2):
    centred = F.digamma(dist1.alpha) - F.expand_dims(F.digamma(dist1.alpha0), axis=-1)
    return (_lbeta(dist2.alpha) - _lbeta(dist1.alpha)
            + F.sum((dist1.alpha - dist2.alpha) * centred, axis=-1))
