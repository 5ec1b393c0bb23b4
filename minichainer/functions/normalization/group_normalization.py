"""Group normalization (`chainer.functions.group_normalization`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions import _fast
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.cast import cast
from minichainer.functions.array.reshape import reshape
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.normalization.layer_normalization import normalized_rows
from minichainer.functions.normalization.layer_normalization import normalized_rows_grad


class GroupNormalization(function_node.FunctionNode):
    """FunctionNode of
    [`group_normalization`][minichainer.functions.normalization.group_normalization.group_normalization].

    The forward normalizes each (sample, group) row of `x` reshaped to
    `(batch * groups, -1)` with Chainer 7's rounding (`mean`, the mean of the squared
    deviations, `1 / sqrt(var + eps)`), then scales and shifts per channel; `mean`
    and `inv_std` (one per row) are kept for the backward, which without a graph
    is the closed form in a few full-size passes, and with one (double backprop) is
    built from differentiable functions.
    """

    mean = None
    inv_std = None

    def __init__(self, groups, eps=1e-5):
        if not isinstance(groups, int):
            raise TypeError("Argument: 'groups' type must be (int), got {}".format(
                type(groups).__name__))
        self.groups = groups
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)
        type_check.expect(
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.dtype.kind == 'f',
            gamma_type.dtype == beta_type.dtype,
            x_type.shape[1] == gamma_type.shape[0],
            gamma_type.shape == beta_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        n, c = x.shape[:2]
        _check_groups(self.groups, c)
        xp = backend.get_array_module(x)
        interm = numpy.promote_types(x.dtype, gamma.dtype)
        rows = x.reshape(n * self.groups, -1)
        self.mean = rows.mean(axis=1, dtype=interm)
        x_hat = xp.subtract(rows, self.mean[:, None], dtype=interm)
        var = (x_hat * x_hat).mean(axis=1)     # Chainer's rounding (no einsum)
        var += interm.type(self.eps)
        xp.sqrt(var, out=var)
        self.inv_std = xp.reciprocal(var, out=var)
        x_hat *= self.inv_std[:, None]
        y = x_hat.reshape(n, c, -1)
        y *= gamma.astype(interm, copy=False)[:, None]
        y += beta.astype(interm, copy=False)[:, None]
        return y.reshape(x.shape).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            grads = _group_norm_grad(x.array, gamma.array, gy.array, self.groups,
                                     self.mean, self.inv_std)
            return tuple(_fast.as_grad(grads[i]) for i in indexes)
        grads = _group_norm_grad_graph(x, gamma, gy, self.groups, self.eps)
        return tuple(grads[i] for i in indexes)


def _check_groups(groups, channels):
    if channels % groups != 0:
        raise ValueError("Argument: 'groups' must be a divisor of the number of channels "
                         '({}), got {}'.format(channels, groups))


def _group_norm_grad(x, gamma, gy, groups, mean, inv_std):
    """(gx, ggamma, gbeta) of group normalization in closed form, as Chainer 7 rounds
    them: `gx = inv_std * (g - mean(g) - x_hat * mean(g * x_hat))` per row, with
    `g = gy * gamma`; `ggamma = sum(gy * x_hat)`, `gbeta = sum(gy)` per channel."""
    xp = backend.get_array_module(x)
    n, c = x.shape[:2]
    interm = numpy.promote_types(x.dtype, gamma.dtype)
    rows = x.reshape(n * groups, -1)
    x_hat = xp.subtract(rows, mean[:, None], dtype=interm)
    x_hat *= inv_std[:, None]
    gy3 = gy.astype(interm, copy=False).reshape(n, c, -1)
    x_hat3 = x_hat.reshape(n, c, -1)
    gbeta = gy3.sum(axis=(0, 2))
    ggamma = (gy3 * x_hat3).sum(axis=(0, 2))
    g = (gy3 * gamma.astype(interm, copy=False)[:, None]).reshape(x_hat.shape)
    g_mean = g.mean(axis=1, keepdims=True)
    g_x_hat_mean = (g * x_hat).mean(axis=1, keepdims=True)
    g -= g_mean
    x_hat *= g_x_hat_mean
    g -= x_hat
    g *= inv_std[:, None]
    return (g.reshape(x.shape).astype(x.dtype, copy=False),
            ggamma.astype(gamma.dtype, copy=False), gbeta.astype(gamma.dtype, copy=False))


def _group_norm_grad_graph(x, gamma, gy, groups, eps):
    """The same gradients built from differentiable functions (double backprop)."""
    n, c = x.shape[:2]
    interm = numpy.promote_types(x.dtype, gamma.dtype)
    rows = reshape(cast(x, interm) if x.dtype != interm else x, (n * groups, -1))
    x_hat, inv_std = normalized_rows(rows, eps)
    gy3 = reshape(cast(gy, interm) if gy.dtype != interm else gy, (n, c, -1))
    x_hat3 = reshape(x_hat, gy3.shape)
    gamma_i = cast(gamma, interm) if gamma.dtype != interm else gamma
    gbeta = _sum(gy3, axis=(0, 2))
    ggamma = _sum(gy3 * x_hat3, axis=(0, 2))
    g = reshape(gy3 * broadcast_to(reshape(gamma_i, (1, c, 1)), gy3.shape), rows.shape)
    gx = reshape(normalized_rows_grad(g, x_hat, inv_std), x.shape)
    if gx.dtype != x.dtype:
        gx = cast(gx, x.dtype)
    if ggamma.dtype != gamma.dtype:
        ggamma, gbeta = cast(ggamma, gamma.dtype), cast(gbeta, gamma.dtype)
    return gx, ggamma, gbeta


class _MulInvStd(function_node.FunctionNode):
    """`z = inv_std[:, None] * y` where `inv_std` is that of each row of `x`.

    Inputs `(x, y)` of shape (rows, units); `mean`/`inv_std` (x's row statistics)
    are given to the constructor as Chainer's helper of the same name takes them. The
    backward also differentiates `inv_std` with respect to `x` (double backprop
    works: it is built from differentiable functions).
    """

    def __init__(self, eps, mean, inv_std, dummy_gamma):
        self.eps = eps
        self.mean = mean
        self.inv_std = inv_std
        self.dummy_gamma = dummy_gamma

    def forward(self, inputs):
        self.retain_inputs((0,))
        _, y = inputs
        self.retain_outputs((0,))
        return self.inv_std[:, None] * y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        z, = self.get_retained_outputs()
        gz, = grad_outputs
        n = x.shape[1]
        inv_n = x.dtype.type(1. / n)
        d = x - broadcast_to(_sum(x, axis=1, keepdims=True) * inv_n, x.shape)
        var = _sum(d * d, axis=1, keepdims=True) * inv_n
        inv_std = broadcast_to((var + x.dtype.type(self.eps)) ** -0.5, x.shape)
        ret = []
        if 0 in indexes:
            gz_z = broadcast_to(_sum(gz * z, axis=1, keepdims=True) * inv_n, x.shape)
            ret.append(-(d * inv_std * gz_z * inv_std))
        if 1 in indexes:
            ret.append(inv_std * gz)
        return ret


def group_normalization(x, groups, gamma, beta, eps=1e-5):
    """Group normalization: normalize each group of channels of each sample.

    Args:
        x (Variable or ndarray): (batch, channels, ...) input.
        groups (int): number of channel groups; must divide the channel count.
        gamma, beta (Variable or ndarray): (channels,) scale and shift.
        eps (float): added to the variance.

    Raises:
        InvalidType: if `x` has fewer than 2 axes, or `gamma`/`beta` are not float
            vectors of the channel count.
        TypeError: if `groups` is not an int.
        ValueError: if `groups` does not divide the number of channels.
    """
    func = GroupNormalization(groups, eps)
    if x.ndim >= 2:
        _check_groups(groups, x.shape[1])
    return func.apply((x, gamma, beta))[0]
