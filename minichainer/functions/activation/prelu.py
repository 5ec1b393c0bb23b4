"""Parametric ReLU (`chainer.functions.prelu`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.array import broadcast
from minichainer.functions.array import reshape
from minichainer.functions.math import sum as sum_mod
from minichainer.utils import type_check


def _get_extended_shape(W, x):
    return (1,) + W.shape + (1,) * (x.ndim - W.ndim - 1)


def _get_reduce_axes(W, x):
    return (0,) + tuple(range(1 + W.ndim, x.ndim))


class PReLUFunction(function_node.FunctionNode):
    """Parametric ReLU: `x` for `x >= 0` else `W * x` (`W` broadcast from axis 1)."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'W'))
        x_type, W_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            W_type.dtype == x_type.dtype,
            x_type.ndim >= W_type.ndim + 1,
            x_type.shape[1:1 + type_check.eval(W_type.ndim)] == W_type.shape,
        )

    def forward(self, inputs):
        x, W = inputs
        xp = backend.get_array_module(x)
        # Chainer's y = x; y[x < 0] *= W, branch-free (a masked select is slow on random
        # signs): min(0, x) * W + max(0, x), one of the two terms being 0
        y = utils.force_array(xp.minimum(x.dtype.type(0), x))
        y *= W.reshape(_get_extended_shape(W, x))
        y += xp.maximum(x.dtype.type(0), x)
        self.retain_inputs((0, 1))
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        return PReLUFunctionGrad(
            x.array, _get_reduce_axes(W, x), _get_extended_shape(W, x)).apply((x, W, gy))


class PReLUFunctionGrad(function_node.FunctionNode):
    """Gradients of PReLU w.r.t. `x` and `W` from `(x, W, gy)`; `cond` gives the mask."""

    def __init__(self, cond, reduce_axes, extended_shape):
        self.cond = cond
        self.reduce_axes = reduce_axes
        self.extended_shape = extended_shape

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'W', 'gy'))
        x_type, W_type, gy_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            W_type.dtype == x_type.dtype,
            gy_type.dtype == x_type.dtype,
            x_type.ndim >= W_type.ndim + 1,
            x_type.shape[1:1 + type_check.eval(W_type.ndim)] == W_type.shape,
            gy_type.shape == x_type.shape,
        )

    def forward(self, inputs):
        x, W, gy = inputs
        xp = backend.get_array_module(x)
        # Chainer's where(cond >= 0, 0, x * gy) and where(cond >= 0, gy, gy * W) as
        # products with the 0/1 mask m (a masked select is slow on random signs):
        # x * gy * (1 - m) and gy * (m + (1 - m) * W), each term exact
        m = xp.empty(self.cond.shape, x.dtype)
        xp.greater_equal(self.cond, 0, out=m)
        keep = x.dtype.type(1) - m
        masked = utils.force_array(x * gy, x.dtype)
        masked *= keep
        if self.reduce_axes is None:
            gW = masked
        else:
            gW = masked.sum(axis=self.reduce_axes)
        keep *= W.reshape(self.extended_shape)
        keep += m
        gx = utils.force_array(keep * gy, gy.dtype)
        self.retain_inputs((0, 1, 2))
        return gx, utils.force_array(gW, x.dtype)

    def backward(self, indexes, grad_outputs):
        x, W, gy = self.get_retained_inputs()
        ggx, ggW = grad_outputs
        dtype = x.dtype
        if ggW is None:
            ggW = x.array.dtype.type(0) * x.array
        else:
            ggW = broadcast.broadcast_to(reshape.reshape(ggW, self.extended_shape), x.shape)
        ggW = ggW * (self.cond < 0).astype(dtype)
        if ggx is None:
            ggx = gy.array.dtype.type(0) * gy.array
        gxgy, gxW = PReLUFunctionGrad(self.cond, None, self.extended_shape).apply((gy, W, ggx))
        ret = []
        if 0 in indexes:
            ret.append(gy * ggW)
        if 1 in indexes:
            ret.append(sum_mod.sum(gxW, axis=self.reduce_axes))
        if 2 in indexes:
            ret.append(x * ggW + gxgy)
        return ret


def prelu(x, W):
    """Parametric ReLU function: `x` for `x >= 0`, `W * x` otherwise.

    Args:
        x (Variable or ndarray): Input of shape `(s_B, s_1, ..., s_N)`.
        W (Variable or ndarray): Coefficients of shape `(s_1, ..., s_M)`,
            `M <= N`.

    Returns:
        Variable: Output of the same shape as `x`.
    """
    return PReLUFunction().apply((x, W))[0]
