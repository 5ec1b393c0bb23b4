"""Reinterpret batch axes as event axes (`chainer.distributions.Independent`)."""
import numpy

from minichainer import distribution
from minichainer import functions as F
from minichainer.distributions import utils as dutils
from minichainer.utils import size_of_shape


class Independent(distribution.Distribution):
    """Treat the last `reinterpreted_batch_ndims` batch axes of `distribution` as event axes.

    Densities are summed (log-densities) or multiplied (probabilities, CDFs) over those
    axes, so e.g. `Independent(Normal(loc, scale))` with `loc` of shape `(B, D)`
    is a diagonal Gaussian over `D`-vectors with batch shape `(B,)`.

    Args:
        distribution (Distribution): the base distribution.
        reinterpreted_batch_ndims (int): number of trailing batch axes to move into the
            event; default `max(0, len(distribution.batch_shape) - 1)`.
    """

    def __init__(self, distribution, reinterpreted_batch_ndims=None):
        base_batch = distribution.batch_shape
        if reinterpreted_batch_ndims is None:
            reinterpreted_batch_ndims = self._get_default_reinterpreted_batch_ndims(
                distribution)
        elif reinterpreted_batch_ndims > len(base_batch):
            raise ValueError(
                'Independent: reinterpreted_batch_ndims must be less than or equal to the '
                'number of dimensions of `distribution.batch_shape` ({}), got {}'.format(
                    len(base_batch), reinterpreted_batch_ndims))
        elif reinterpreted_batch_ndims < 0:
            raise ValueError('Independent: reinterpreted_batch_ndims must be non-negative, '
                             'got {}'.format(reinterpreted_batch_ndims))
        self._distribution = distribution
        self._ndims = reinterpreted_batch_ndims
        split = len(base_batch) - reinterpreted_batch_ndims
        self._batch_shape = base_batch[:split]
        self._event_shape = base_batch[split:] + distribution.event_shape

    @property
    def distribution(self):
        return self._distribution

    @property
    def reinterpreted_batch_ndims(self):
        return self._ndims

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    def _get_default_reinterpreted_batch_ndims(self, distribution):
        return max(0, len(distribution.batch_shape) - 1)

    def _reduce(self, op, value):
        if not self._ndims:
            return value
        return op(value, axis=tuple(range(-self._ndims, 0)))

    # statistics delegated unchanged
    @property
    def mean(self):
        return self._distribution.mean

    @property
    def mode(self):
        return self._distribution.mode

    @property
    def stddev(self):
        return self._distribution.stddev

    @property
    def variance(self):
        return self._distribution.variance

    @property
    def params(self):
        return self._distribution.params

    @property
    def support(self):
        return self._distribution.support

    @property
    def xp(self):
        return self._distribution.xp

    @property
    def entropy(self):
        return self._reduce(F.sum, self._distribution.entropy)

    def log_prob(self, x):
        return self._reduce(F.sum, self._distribution.log_prob(x))

    def log_cdf(self, x):
        return self._reduce(F.sum, self._distribution.log_cdf(x))

    def log_survival_function(self, x):
        return self._reduce(F.sum, self._distribution.log_survival_function(x))

    def prob(self, x):
        return self._reduce(F.prod, self._distribution.prob(x))

    def cdf(self, x):
        return self._reduce(F.prod, self._distribution.cdf(x))

    def survival_function(self, x):
        return self._reduce(F.prod, self._distribution.survival_function(x))

    def perplexity(self, x):
        return self._reduce(F.prod, self._distribution.perplexity(x))

    def icdf(self, x):
        raise RuntimeError('Independent: the cumulative distribution function of a '
                           'multivariate variable is not invertible')

    def sample_n(self, n):
        return self._distribution.sample_n(n)

    @dutils.cached_property
    def _block_indicator(self):
        # 0/1 matrix that is 1 on the (dim x dim) diagonal blocks.
        n_blocks = size_of_shape(self._event_shape[:self._ndims])
        dim = size_of_shape(self._distribution.event_shape)
        block = numpy.arange(n_blocks * dim) // dim
        indicator = (block[:, None] == block[None, :]).astype(int)
        return self.xp.asarray(indicator)

    @dutils.cached_property
    def covariance(self):
        """Block-diagonal covariance over the flattened event (base covariances on the blocks)."""
        n_blocks = size_of_shape(self._event_shape[:self._ndims])
        dim = size_of_shape(self._distribution.event_shape)
        batch = self._batch_shape
        nb = len(batch)
        cov = F.reshape(self._distribution.covariance, batch + (1, n_blocks, dim, dim))
        cov = F.repeat(cov, n_blocks, axis=-4)
        # (..., i, j, a, b) -> (..., i, a, j, b): block (i, j) of a matrix of blocks.
        cov = F.transpose(cov, tuple(range(nb)) + (nb, nb + 2, nb + 1, nb + 3))
        cov = F.reshape(cov, batch + (n_blocks * dim, n_blocks * dim))
        indicator = self._block_indicator.reshape((1,) * nb + self._block_indicator.shape)
        return cov * indicator.astype(cov.dtype)


@distribution.register_kl(Independent, Independent)
def _kl_independent_independent(dist1, dist2):
    p = dist1.distribution
    q = dist2.distribution
    if dist1.event_shape != dist2.event_shape:
        raise ValueError('kl_divergence(Independent, Independent): event shapes do not '
                         'match ({} and {})'.format(dist1.event_shape, dist2.event_shape))
    if p.event_shape != q.event_shape:
        raise NotImplementedError(
            'kl_divergence(Independent, Independent): base distributions with different '
            'event shapes ({} and {}) are not supported'.format(p.event_shape, q.event_shape))
    n_axes = len(dist1.event_shape) - len(p.event_shape)
    kl = distribution.kl_divergence(p, q)
    if not n_axes:
        return kl
    return F.sum(kl, axis=tuple(range(-n_axes, 0)))
