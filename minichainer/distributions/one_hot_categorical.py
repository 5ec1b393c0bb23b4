"""Categorical distribution over one-hot vectors (`chainer.distributions.OneHotCategorical`)."""
from minichainer import backend
from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils


class OneHotCategorical(distribution.Distribution):
    """Categorical distribution whose events are one-hot vectors (`event_shape == (k,)`).

    Args:
        p (Variable or ndarray): class probabilities, classes on the last axis.
    """

    def __init__(self, p):
        self._p_in = dutils.check_param('OneHotCategorical', 'p', p)

    p = dutils.param('p')

    @dutils.cached_property
    def log_p(self):
        return F.log(self.p)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return self.p.shape[-1:]

    @property
    def params(self):
        return {'p': self.p}

    @dutils.cached_property
    def mean(self):
        return self.p

    @dutils.cached_property
    def variance(self):
        return self.p * (1.0 - self.p)

    def log_prob(self, x):
        return F.sum(self.log_p * x, axis=-1)

    def sample_n(self, n):
        p = self.p.array
        xp = backend.get_array_module(p)
        indices = dutils.categorical_indices(p, n, 'OneHotCategorical')
        return variable.Variable(xp.eye(p.shape[-1], dtype=p.dtype)[indices])


@distribution.register_kl(OneHotCategorical, OneHotCategorical)
def _kl_one_hot_categorical_one_hot_categorical(dist1, dist2):
    return F.sum(dist1.p * (dist1.log_p - dist2.log_p), axis=-1)
