"""Multivariate normal distribution (`chainer.distributions.MultivariateNormal`)."""
import math

import numpy

from minichainer import backend
from minichainer import distribution
from minichainer import function_node
from minichainer import functions as F
from minichainer.distributions import utils as dutils
from minichainer.utils import argument
from minichainer.utils import type_check

# Normalizing constants, named as in Chainer.
LOGPROBC = -0.5 * math.log(2 * math.pi)
ENTROPYC = 0.5 * math.log(2 * math.pi * math.e)


class TriangularInv(function_node.FunctionNode):
    """Inverse of (a stack of) triangular matrices; the gradient stays triangular."""

    def __init__(self, lower=True):
        self._lower = lower

    @property
    def label(self):
        return 'triangular_inv'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            x_type.shape[-1] == x_type.shape[-2],
        )

    def _mask(self, xp, d, dtype):
        mask = xp.tri(d, dtype=dtype)
        return mask if self._lower else mask.T

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        self.retain_outputs((0,))
        if x.shape[-1] == 0:
            return x.copy(),
        # Only the triangle is read (entries outside it are ignored, as a triangular
        # solver does); the inverse of a triangular matrix is triangular.
        mask = self._mask(xp, x.shape[-1], x.dtype)
        inv = xp.linalg.inv(x * mask) * mask
        return inv.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        inv, = self.get_retained_outputs()
        gy, = grad_outputs
        xp = backend.get_array_module(gy.array)
        inv_t = F.swapaxes(inv, -1, -2)
        gx = -F.matmul(F.matmul(inv_t, gy), inv_t)
        return gx * self._mask(xp, inv.shape[-1], gx.dtype),


def _triangular_inv(x, lower=True):
    return TriangularInv(lower).apply((x,))[0]


def _batch_triangular_inv(x, lower=True):
    return _triangular_inv(x, lower)


def _triangular_logdet(x):
    return F.sum(F.log(abs(F.diagonal(x, axis1=-2, axis2=-1))), axis=-1)


class MultivariateNormal(distribution.Distribution):
    """Multivariate normal distribution `N(loc, scale_tril scale_tril^T)`.

    Args:
        loc (Variable or ndarray): mean, shape `batch_shape + (d,)`.
        scale_tril (Variable or ndarray): keyword-only (required) lower
            Cholesky factor of the covariance, shape `batch_shape + (d, d)`.

    Samples are reparameterized (`loc + scale_tril @ eps`).
    """

    def __init__(self, loc, **kwargs):
        scale_tril, = argument.parse_kwargs(kwargs, ('scale_tril', None))
        if scale_tril is None:
            raise ValueError('MultivariateNormal: `scale_tril` must have a value')
        self._loc_in = dutils.check_param('MultivariateNormal', 'loc', loc)
        self._scale_tril_in = dutils.check_param(
            'MultivariateNormal', 'scale_tril', scale_tril)
        loc_shape, tril_shape = self._loc_in.shape, self._scale_tril_in.shape
        if len(loc_shape) < 1 or tril_shape != loc_shape + loc_shape[-1:]:
            raise ValueError(
                'MultivariateNormal: scale_tril must have shape loc.shape + (d,) = {}, '
                'got loc {} and scale_tril {}'.format(
                    loc_shape + loc_shape[-1:], loc_shape, tril_shape))

    def __copy__(self):
        return self._copy_to(MultivariateNormal(self.loc, scale_tril=self.scale_tril))

    loc = dutils.param('loc')
    scale_tril = dutils.param('scale_tril')

    @dutils.cached_property
    def _logdet_scale(self):
        return _triangular_logdet(self.scale_tril)

    @dutils.cached_property
    def _scale_tril_inv(self):
        return _triangular_inv(self.scale_tril)

    @property
    def d(self):
        return self.scale_tril.shape[-1]

    @property
    def batch_shape(self):
        return self.loc.shape[:-1]

    @property
    def event_shape(self):
        return self.loc.shape[-1:]

    @property
    def params(self):
        return {'loc': self.loc, 'scale_tril': self.scale_tril}

    @property
    def support(self):
        return 'real'

    @dutils.cached_property
    def mean(self):
        return self.loc

    @property
    def covariance(self):
        return F.matmul(self.scale_tril, F.swapaxes(self.scale_tril, -1, -2))

    @dutils.cached_property
    def entropy(self):
        return self._logdet_scale + ENTROPYC * self.d

    def log_prob(self, x):
        diff = x - F.broadcast_to(self.loc, x.shape)
        inv = F.broadcast_to(self._scale_tril_inv, x.shape + (self.d,))
        z = F.matmul(inv, F.expand_dims(diff, axis=-1))
        mahalanobis = F.sum(z * z, axis=(-2, -1))
        log_z = LOGPROBC * self.d - self._logdet_scale
        return F.broadcast_to(log_z, mahalanobis.shape) - 0.5 * mahalanobis

    def sample_n(self, n):
        loc = self.loc
        eps = dutils.draw(numpy.random.standard_normal, (n,) + loc.shape + (1,), loc.dtype)
        return loc + F.squeeze(F.matmul(self.scale_tril, eps), axis=-1)


@distribution.register_kl(MultivariateNormal, MultivariateNormal)
def _kl_multivariatenormal_multivariatenormal(dist1, dist2):
    d = dist1.d
    inv2 = F.reshape(dist2._scale_tril_inv, (-1, d, d))
    trace = F.sum(F.matmul(inv2, F.reshape(dist1.scale_tril, (-1, d, d))) ** 2,
                  axis=(-1, -2))
    diff = F.reshape(dist1.loc - dist2.loc, (-1, d, 1))
    mahalanobis = F.sum(F.matmul(inv2, diff) ** 2, axis=(-2, -1))
    batch = dist1.batch_shape
    return (dist2._logdet_scale - dist1._logdet_scale
            + 0.5 * F.reshape(trace, batch) + 0.5 * F.reshape(mahalanobis, batch)
            - 0.5 * d)
