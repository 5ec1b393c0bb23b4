"""Categorical distribution over class indices (`chainer.distributions.Categorical`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer import variable
from minichainer.distributions import utils as dutils
from minichainer.utils import argument


class Categorical(distribution.Distribution):
    """Categorical distribution: `P(x = i) = p[..., i]`; events are integer indices.

    Args:
        p (Variable or ndarray): class probabilities, classes on the last axis.
        logit (Variable or ndarray): keyword-only alternative to `p`:
            unnormalized log-probabilities; exactly one of the two is required.
    """

    def __init__(self, p=None, **kwargs):
        logit = None
        if kwargs:
            logit, = argument.parse_kwargs(kwargs, ('logit', None))
        dutils.exclusive('Categorical', p=p, logit=logit)
        self._p_in = dutils.check_param('Categorical', 'p', p, optional=True)
        self._logit_in = dutils.check_param('Categorical', 'logit', logit, optional=True)

    @dutils.cached_property
    def p(self):
        if self._p_in is None:
            return F.exp(self.log_p)
        return variable.as_variable(self._p_in)

    @dutils.cached_property
    def log_p(self):
        if self._p_in is None:
            return F.log_softmax(self._logit_in, axis=-1)
        return F.log(self._p_in)

    @property
    def batch_shape(self):
        return self.p.shape[:-1]

    @property
    def event_shape(self):
        return ()

    @property
    def params(self):
        return {'p': self.p}

    @dutils.cached_property
    def entropy(self):
        return -F.sum(dutils.modified_xlogx(self.p), axis=-1)

    def log_prob(self, x):
        """`log p[x]` for integer class indices `x` of shape `sample_shape + batch_shape`."""
        x = dutils.array_of(x)
        n_class = self.log_p.shape[-1]
        log_p = F.broadcast_to(self.log_p, x.shape + (n_class,))
        flat = F.select_item(F.reshape(log_p, (-1, n_class)),
                             x.reshape(-1).astype(numpy.int32))
        return F.reshape(flat, x.shape)

    def sample_n(self, n):
        return variable.Variable(dutils.categorical_indices(self.p.array, n))


@distribution.register_kl(Categorical, Categorical)
def _kl_categorical_categorical(dist1, dist2):
    return F.sum(dist1.p * (dist1.log_p - dist2.log_p), axis=-1)
