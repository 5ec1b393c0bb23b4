"""Swish (`chainer.functions.swish`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.activation import sigmoid
from minichainer.functions.array import broadcast
from minichainer.functions.array import reshape
from minichainer.functions.math import sum as sum_mod
from minichainer.utils import type_check


def _get_extended_shape(beta, x):
    return (1,) + beta.shape + (1,) * (x.ndim - beta.ndim - 1)


def _get_reduction_axes(beta, x):
    return (0,) + tuple(range(1 + beta.ndim, x.ndim))


def _sigmoid(x):
    xp = backend.get_array_module(x)
    half = x.dtype.type(0.5)
    return xp.tanh(x * half) * half + half


class Swish(function_node.FunctionNode):
    """Swish: `x * sigmoid(beta * x)` with `beta` broadcast from axis 1."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'beta'))
        x_type, beta_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            beta_type.dtype == x_type.dtype,
            beta_type.ndim <= x_type.ndim - 1,
            beta_type.shape == x_type.shape[1:1 + type_check.eval(beta_type.ndim)],
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, beta = inputs
        beta = beta.reshape(_get_extended_shape(beta, x))
        return utils.force_array(x * _sigmoid(beta * x)),

    def backward(self, indexes, grad_outputs):
        x, beta = self.get_retained_inputs()
        gy, = grad_outputs
        return SwishGrad(_get_extended_shape(beta, x),
                         _get_reduction_axes(beta, x)).apply((x, beta, gy))


class SwishGrad(function_node.FunctionNode):
    """Gradients of swish w.r.t. `x` and `beta` as a function of `(x, beta, gy)`."""

    def __init__(self, extended_shape, reduction_axes):
        super().__init__()
        self.extended_shape = extended_shape
        self.reduction_axes = reduction_axes

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, beta, gy = inputs
        beta = beta.reshape(self.extended_shape)
        sig = _sigmoid(beta * x)
        y = x * sig
        by = beta * y
        one = x.dtype.type(1)
        gx = gy * (by + sig * (one - by))
        gb = gy * y * (x - y)
        gb = utils.force_array(gb.sum(axis=self.reduction_axes))
        return utils.force_array(gx), gb

    def backward(self, indexes, grad_outputs):
        x, beta, gy = self.get_retained_inputs()
        ggx, ggb = grad_outputs
        shape = gy.shape
        beta = broadcast.broadcast_to(reshape.reshape(beta, self.extended_shape), shape)
        if ggx is None:
            ggx = x.array.dtype.type(0)
        if ggb is None:
            ggb = x.array.dtype.type(0)
        else:
            ggb = broadcast.broadcast_to(reshape.reshape(ggb, self.extended_shape), shape)

        sig = sigmoid.sigmoid(beta * x)
        y = x * sig
        by = beta * y
        one_minus_sig = 1 - sig
        sig_one_minus_by = sig * (1 - by)
        y_x_minus_y = y * (x - y)
        x_minus_2y = x - 2 * y
        common = gy * y * (2 + beta * x_minus_2y) * one_minus_sig

        ret = []
        if 0 in indexes:
            ret.append(ggx * gy * beta * one_minus_sig * (by + 2 * sig_one_minus_by)
                       + ggb * common)
        if 1 in indexes:
            gb = ggx * common + ggb * gy * y_x_minus_y * x_minus_2y
            ret.append(sum_mod.sum(gb, axis=self.reduction_axes))
        if 2 in indexes:
            ret.append(ggx * (by + sig_one_minus_by) + ggb * y_x_minus_y)
        return ret


def swish(x, beta):
    """Swish activation, `x * sigmoid(beta * x)`.

    Args:
        x (Variable or ndarray): Input float array of shape `(s_B, s_1, ..., s_N)`.
        beta (Variable or ndarray): Parameter of shape `(s_1, ..., s_M)`,
            `M <= N`, broadcast over the batch axis and trailing axes.

    Returns:
        Variable: Output of the same shape as `x`.
    """
    y, = Swish().apply((x, beta))
    return y
