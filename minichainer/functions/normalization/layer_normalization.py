"""Layer normalization."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions import _fast
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.math.sum import sum as _sum


class LayerNormalization(function_node.FunctionNode):
    """FunctionNode of
    [`layer_normalization`][minichainer.functions.normalization.layer_normalization.layer_normalization]
    on (batch, units) inputs.

    The forward rounds as Chainer 7's does; its row statistics (`mean`, `inv_std`)
    are kept for the closed-form backward without a graph. With a graph (double
    backprop) the backward is built from differentiable functions.
    """

    mean = None
    inv_std = None

    def __init__(self, eps=1e-5):
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 2,
            gamma_type.ndim == 1,
            beta_type.ndim == 1,
            gamma_type.dtype == x_type.dtype,
            beta_type.dtype == x_type.dtype,
            gamma_type.shape == beta_type.shape,
            x_type.shape[1] == gamma_type.shape[0],
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        # Chainer's rounding: mean, the mean of the squared deviations, 1 / sqrt(var + eps)
        self.mean = x.mean(axis=1, keepdims=True)
        x_hat = x - self.mean
        sq = xp.square(x_hat)
        var = sq.mean(axis=1, keepdims=True)
        del sq
        var += x.dtype.type(self.eps)
        self.inv_std = xp.reciprocal(xp.sqrt(var, out=var), out=var)
        x_hat *= self.inv_std
        x_hat *= gamma[None]              # y in the centred x's buffer
        x_hat += beta[None]
        return x_hat.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _layer_norm_grad(indexes, x.array, gamma.array, gy.array, self.mean,
                                    self.inv_std)
        x_hat, inv_std = normalized_rows(x, self.eps)
        ret = []
        if 0 in indexes:
            g = gy * broadcast_to(gamma[None], x.shape)
            ret.append(normalized_rows_grad(g, x_hat, inv_std))
        if 1 in indexes:
            ret.append(_sum(gy * x_hat, axis=0))
        if 2 in indexes:
            ret.append(_sum(gy, axis=0))
        return ret


def normalized_rows(x, eps):
    """Each row of the (rows, units) Variable `x` normalized, as differentiable functions
    (the double-backprop paths of layer and group normalization): `(x_hat, inv_std)`,
    `inv_std` broadcast to x's shape."""
    n = x.shape[1]
    mu = broadcast_to(_sum(x, axis=1, keepdims=True) / n, x.shape)
    x_mu = x - mu
    var = _sum(x_mu * x_mu, axis=1, keepdims=True) / n
    inv_std = broadcast_to((var + x.dtype.type(eps)) ** -0.5, x.shape)
    return x_mu * inv_std, inv_std


def normalized_rows_grad(g, x_hat, inv_std):
    """The gradient reaching the rows through `normalized_rows` from `g`, the gradient
    w.r.t. `x_hat`: `inv_std * (g - mean(g) - x_hat * mean(g * x_hat))` per row."""
    n = g.shape[1]
    g_mean = broadcast_to(_sum(g, axis=1, keepdims=True) / n, g.shape)
    gx_mean = broadcast_to(_sum(g * x_hat, axis=1, keepdims=True) / n, g.shape)
    return inv_std * (g - g_mean - x_hat * gx_mean)


def _layer_norm_grad(indexes, x, gamma, gy, mean, inv_std):
    """Closed-form gradients of layer normalization, without a graph, from the
    forward's row statistics.

    `gx = inv_std * (g - mean(g) - x_hat * mean(g * x_hat))` with `g = gy * gamma`.
    """
    xp = backend.get_array_module(x)
    inv_n = x.dtype.type(1. / x.shape[1])
    x_hat = x - mean
    x_hat *= inv_std
    ret = []
    for i in indexes:
        if i == 0:
            g = gy * gamma[None]
            g_mean = g.mean(axis=1, keepdims=True)
            gx_mean = xp.einsum('ij,ij->i', g, x_hat)[:, None] * inv_n
            g -= g_mean
            g -= x_hat * gx_mean
            g *= inv_std
            ret.append(_fast.as_grad(g))
        elif i == 1:
            ret.append(_fast.as_grad(xp.einsum('ij,ij->j', gy, x_hat)))
        else:
            ret.append(_fast.as_grad(gy.sum(axis=0)))
    return ret


def layer_normalization(x, gamma, beta, eps=1e-5):
    """Layer normalization: normalize each row of `x` (batch, units), then scale/shift.

    Args:
        x (Variable or ndarray): (batch, units) input.
        gamma, beta (Variable or ndarray): (units,) scale and shift.
        eps (float): added to the variance.
    """
    return LayerNormalization(eps).apply((x, gamma, beta))[0]
