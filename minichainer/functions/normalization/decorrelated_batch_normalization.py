"""Decorrelated (ZCA-whitening) batch normalization."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import argument
from minichainer.utils import precision
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.expand_dims import expand_dims
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.transpose import transpose
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.sum import sum as _sum


def _spatial_axes(ndim):
    return tuple(range(2, ndim))


def _to_groups(a, groups):
    """(batch, channels, *spatial) array -> (groups, channels // groups, samples)."""
    perm = (1, 0) + _spatial_axes(a.ndim)
    return a.transpose(perm).reshape(groups, a.shape[1] // groups, -1)


def _from_groups(a, shape):
    """Inverse of `_to_groups` for an input of `shape`."""
    perm = (1, 0) + _spatial_axes(len(shape))
    return a.reshape((shape[1], shape[0]) + tuple(shape[2:])).transpose(perm)


def _to_groups_var(v, groups):
    perm = (1, 0) + _spatial_axes(v.ndim)
    return reshape(transpose(v, perm), (groups, v.shape[1] // groups, -1))


def _from_groups_var(v, shape):
    perm = (1, 0) + _spatial_axes(len(shape))
    return transpose(reshape(v, (shape[1], shape[0]) + tuple(shape[2:])), perm)


def _check_groups(groups):
    if isinstance(groups, bool) or not isinstance(groups, (int, numpy.integer)) \
            or groups <= 0:
        raise ValueError('decorrelated_batch_normalization: groups must be a positive '
                         'int, got {!r}'.format(groups))


def _check_statistic(name, array, expected_shape):
    if array is not None and tuple(array.shape) != expected_shape:
        raise ValueError('decorrelated_batch_normalization: {} must have shape {} '
                         '(groups, channels // groups{}), got {}'.format(
                             name, expected_shape,
                             ', channels // groups' if len(expected_shape) == 3 else '',
                             tuple(array.shape)))


class DecorrelatedBatchNormalization(function_node.FunctionNode):
    """FunctionNode of
    [`decorrelated_batch_normalization`][minichainer.functions.normalization.decorrelated_batch_normalization.decorrelated_batch_normalization]
    (input `x`).

    `running_mean` / `running_projection` (when given) are updated in place.
    """

    def __init__(self, groups=16, eps=2e-5, mean=None, projection=None, decay=0.9):
        self.groups = groups
        self.running_mean = mean
        self.running_projection = projection
        self.eps = eps
        self.decay = decay
        self.axis = None

    def check_type_forward(self, in_types):
        x_type = _elementwise.check_float_x_ndim(in_types, 2)
        type_check.expect(x_type.shape[1] % self.groups == 0)

    def forward(self, inputs):
        self.retain_inputs(())
        x, = inputs
        xp = backend.get_array_module(x)
        # LAPACK (eigh) has no half precision: float16 is whitened in float32
        xg = _to_groups(x, self.groups).astype(precision.intermediate_dtype(x.dtype),
                                               copy=False)
        n_channels = xg.shape[1]
        m = xg.shape[2]
        mean = xg.mean(axis=2, keepdims=True)
        xc = xg - mean
        cov = xp.matmul(xc, xc.transpose(0, 2, 1))
        cov /= m
        # add eps to the diagonals through a flat view (cov is C-contiguous)
        cov.reshape(cov.shape[0], -1)[:, ::n_channels + 1] += self.eps
        eigvals, eigvecs = xp.linalg.eigh(cov)
        sqrt_eigvals = xp.sqrt(eigvals)
        # projection = cov^(-1/2) = V diag(eigvals^(-1/2)) V^T (ZCA whitening)
        projection = xp.matmul(eigvecs / sqrt_eigvals[:, None, :],
                               eigvecs.transpose(0, 2, 1))
        y = xp.matmul(projection, xc)
        self._xc = xc
        self._eigvecs = eigvecs
        self._sqrt_eigvals = sqrt_eigvals
        self._projection = projection

        decay = self.decay
        if self.running_mean is not None:
            self.running_mean *= decay
            self.running_mean += (1 - decay) * mean[:, :, 0]
        if self.running_projection is not None:
            adjust = m / max(m - 1., 1.)  # unbiased-estimate factor, as Chainer applies it
            self.running_projection *= decay
            self.running_projection += ((1 - decay) * adjust) * projection
        return _from_groups(y.astype(x.dtype, copy=False), x.shape),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return DecorrelatedBatchNormalizationGrad(self).apply((gy,))


class DecorrelatedBatchNormalizationGrad(function_node.FunctionNode):
    """Gradient of `DecorrelatedBatchNormalization` w.r.t. `x` (input `gy`).

    With `y = P xc`, `P = S^(-1/2)` and `S = xc xc^T / m + eps I`, the gradient is
    `P (gy - mean(gy)) + V (K * (A + A^T)) V^T xc / m` where `A = V^T gy xc^T V` and
    `K_ij = (f(l_i) - f(l_j)) / (l_i - l_j)` for `f(l) = l^(-1/2)` (the derivative of
    the matrix function, well defined also for repeated eigenvalues).
    """

    def __init__(self, forward_node):
        self._f = forward_node

    def forward(self, inputs):
        self.retain_inputs(())
        gy, = inputs
        xp = backend.get_array_module(gy)
        f = self._f
        xc = f._xc
        eigvecs = f._eigvecs
        s = f._sqrt_eigvals
        gyg = _to_groups(gy, f.groups).astype(xc.dtype, copy=False)
        m = xc.shape[2]
        gy_centered = gyg - gyg.mean(axis=2, keepdims=True)
        gx = xp.matmul(f._projection, gy_centered)
        eigvecs_t = eigvecs.transpose(0, 2, 1)
        a = xp.matmul(eigvecs_t, xp.matmul(xp.matmul(gyg, xc.transpose(0, 2, 1)), eigvecs))
        a += a.transpose(0, 2, 1)
        s_i = s[:, :, None]
        s_j = s[:, None, :]
        # (l_i^(-1/2) - l_j^(-1/2)) / (l_i - l_j) with l = s ** 2
        a /= -(s_i * s_j * (s_i + s_j))
        sym = xp.matmul(eigvecs, xp.matmul(a, eigvecs_t))
        sym /= m
        gx += xp.matmul(sym, xc)
        return _from_groups(gx.astype(gy.dtype, copy=False), gy.shape),

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'decorrelated_batch_normalization does not support double backpropagation '
            '(as in Chainer)')


class FixedDecorrelatedBatchNormalization(function_node.FunctionNode):
    """FunctionNode of
    [`fixed_decorrelated_batch_normalization`][minichainer.functions.normalization.decorrelated_batch_normalization.fixed_decorrelated_batch_normalization].

    Inputs `(x, mean, projection)`; differentiable w.r.t. all three, twice or more.
    """

    def __init__(self, groups):
        self.groups = groups

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'mean', 'projection'))
        x_type, mean_type, proj_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= 2,
            mean_type.dtype == x_type.dtype,
            proj_type.dtype == x_type.dtype,
            mean_type.ndim == 2,
            proj_type.ndim == 3,
        )
        type_check.expect(
            x_type.shape[1] % self.groups == 0,
            mean_type.shape[0] == self.groups,
            mean_type.shape[1] == x_type.shape[1] // self.groups,
            proj_type.shape[0] == self.groups,
            proj_type.shape[1] == mean_type.shape[1],
            proj_type.shape[2] == mean_type.shape[1],
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, mean, projection = inputs
        xp = backend.get_array_module(x)
        xc = _to_groups(x, self.groups) - mean[:, :, None]
        y = xp.matmul(projection, xc)
        return _from_groups(y, x.shape),

    def backward(self, indexes, grad_outputs):
        x, mean, projection = self.get_retained_inputs()
        gy, = grad_outputs
        gyg = _to_groups_var(gy, self.groups)
        ret = [None, None, None]
        if 0 in indexes or 1 in indexes:
            gxg = matmul(projection, gyg, transa=True)
            if 0 in indexes:
                ret[0] = _from_groups_var(gxg, x.shape)
            if 1 in indexes:
                ret[1] = -_sum(gxg, axis=2)
        if 2 in indexes:
            xg = _to_groups_var(x, self.groups)
            xc = xg - broadcast_to(expand_dims(mean, 2), xg.shape)
            ret[2] = matmul(gyg, xc, transb=True)
        return tuple(ret[i] for i in indexes)


def decorrelated_batch_normalization(x, **kwargs):
    """decorrelated_batch_normalization(x, *, groups=16, eps=2e-5, running_mean=None, \
running_projection=None, decay=0.9)

    Decorrelated batch normalization (Huang et al., 2018): the channels are split into
    ``groups`` groups and each group is centred and ZCA-whitened with the mini-batch
    statistics, ``y = S^(-1/2) (x - mu)`` with ``S = cov + eps * I``, over the batch
    and spatial axes.

    Args:
        x (Variable or ndarray): (batch, channels, ...) input; ``channels`` must be
            divisible by ``groups``.
        groups (int): Number of channel groups whitened independently.
        eps (float): Added to the diagonal of the covariance.
        running_mean (ndarray or None): (groups, channels // groups) running mean,
            updated in place with ``decay`` when given.
        running_projection (ndarray or None): (groups, C, C) running whitening
            matrix, updated in place (times ``m / (m - 1)`` as Chainer does) when given.
        decay (float): Decay rate of the running statistics.

    Returns:
        Variable of the shape and dtype of ``x``. Double backprop is not supported.

    Raises:
        ValueError: bad ``groups`` or running statistics of the wrong shape.
    """
    groups, eps, running_mean, running_projection, decay = argument.parse_kwargs(
        kwargs, ('groups', 16), ('eps', 2e-5), ('running_mean', None),
        ('running_projection', None), ('decay', 0.9))
    _check_groups(groups)
    if (running_mean is not None or running_projection is not None) and x.ndim >= 2 \
            and x.shape[1] % groups == 0:
        per_group = x.shape[1] // groups
        _check_statistic('running_mean', running_mean, (groups, per_group))
        _check_statistic('running_projection', running_projection,
                         (groups, per_group, per_group))
    return DecorrelatedBatchNormalization(
        groups, eps, running_mean, running_projection, decay).apply((x,))[0]


def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16):
    """Decorrelated batch normalization with fixed statistics: `y = P (x - mean)`.

    Used in test mode of
    [`DecorrelatedBatchNormalization`][minichainer.links.normalization.decorrelated_batch_normalization.DecorrelatedBatchNormalization].

    Args:
        x (Variable or ndarray): (batch, channels, ...) input.
        mean (Variable or ndarray): (groups, channels // groups) mean.
        projection (Variable or ndarray): (groups, C, C) whitening matrices.
        groups (int): Number of channel groups.

    Returns:
        Variable of the shape and dtype of `x` (differentiable w.r.t. all inputs).
    """
    _check_groups(groups)
    return FixedDecorrelatedBatchNormalization(groups).apply((x, mean, projection))[0]
