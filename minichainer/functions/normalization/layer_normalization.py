"""Layer normalization."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class LayerNormalization(function_node.FunctionNode):
    """FunctionNode of :func:`layer_normalization` on (batch, units) inputs.

    The backward is built from differentiable functions (double backprop works).
    """

    def __init__(self, eps=1e-5):
        self.eps = eps

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'gamma', 'beta'))
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
        mu = x.mean(axis=1, keepdims=True)
        x_mu = x - mu
        var = xp.mean(xp.square(x_mu), axis=1, keepdims=True)
        inv_std = 1. / xp.sqrt(var + x.dtype.type(self.eps))
        x_hat = x_mu * inv_std
        return (x_hat * gamma[None] + beta[None]).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        from minichainer.functions.array.broadcast import broadcast_to
        from minichainer.functions.math.sum import sum as _sum
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        n = x.shape[1]
        mu = broadcast_to(_sum(x, axis=1, keepdims=True) / n, x.shape)
        x_mu = x - mu
        var = _sum(x_mu * x_mu, axis=1, keepdims=True) / n
        inv_std = broadcast_to((var + x.dtype.type(self.eps)) ** -0.5, x.shape)
        x_hat = x_mu * inv_std
        ret = []
        if 0 in indexes:
            g = gy * broadcast_to(gamma[None], x.shape)
            g_mean = broadcast_to(_sum(g, axis=1, keepdims=True) / n, x.shape)
            gx_mean = broadcast_to(_sum(g * x_hat, axis=1, keepdims=True) / n, x.shape)
            ret.append(inv_std * (g - g_mean - x_hat * gx_mean))
        if 1 in indexes:
            ret.append(_sum(gy * x_hat, axis=0))
        if 2 in indexes:
            ret.append(_sum(gy, axis=0))
        return ret


def layer_normalization(x, gamma, beta, eps=1e-5):
    """Layer normalization: normalize each row of ``x`` (batch, units), then scale/shift.

    Args:
        x (Variable or ndarray): (batch, units) input.
        gamma, beta (Variable or ndarray): (units,) scale and shift.
        eps (float): added to the variance.
    """
    return LayerNormalization(eps).apply((x, gamma, beta))[0]
