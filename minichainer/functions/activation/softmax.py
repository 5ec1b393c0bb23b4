"""Softmax (`chainer.functions.softmax`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array import broadcast
from minichainer.functions.math import sum as sum_mod
from minichainer.utils import type_check


class FloatAlongAxis(function_node.FunctionNode):
    """Function node of one float input `x` computed along its axis `axis`."""

    def __init__(self, axis=1):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        type_check.expect_axis(x_type, self.axis)


class Softmax(FloatAlongAxis):
    """Softmax along `axis`, shifted by the maximum for numerical stability."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        y = x - x.max(axis=self.axis, keepdims=True)
        xp.exp(y, out=y)
        y /= y.sum(axis=self.axis, keepdims=True)
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        return _SoftmaxGrad(self.axis).apply((y, gy))


class _SoftmaxGrad(function_node.FunctionNode):

    def __init__(self, axis):
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        gx = y * gy
        sumdx = gx.sum(axis=self.axis, keepdims=True)
        gx -= y * sumdx
        return gx,

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        gs = sum_mod.sum(ggx * y, axis=self.axis, keepdims=True)
        ga = ggx - broadcast.broadcast_to(gs, gy.shape)
        ret = []
        if 0 in indexes:
            s = broadcast.broadcast_to(sum_mod.sum(y * gy, axis=self.axis, keepdims=True), gy.shape)
            ret.append(ga * gy - ggx * s)
        if 1 in indexes:
            ret.append(ga * y)
        return tuple(ret)


def softmax(x, axis=1):
    """Softmax function along `axis`: `exp(x) / sum(exp(x), axis)`.

    Args:
        x (Variable or ndarray): Input float array.
        axis (int): The axis to normalise over.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    return Softmax(axis=axis).apply((x,))[0]
