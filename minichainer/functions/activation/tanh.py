"""Hyperbolic tangent (`chainer.functions.tanh`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise


class Tanh(_elementwise.FloatInput):
    """Element-wise hyperbolic tangent."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        y = utils.force_array(xp.tanh(x))
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fast.as_grad(_tanh_grad(y.array, gy.array)),
        return TanhGrad(None).apply((y, gy))


def _tanh_grad(y, gy):
    """`gy * (1 - y * y)` in one buffer."""
    xp = backend.get_array_module(y)
    gx = utils.force_array(xp.multiply(y, y))
    xp.subtract(y.dtype.type(1), gx, out=gx)
    gx *= gy
    return gx


class TanhGrad(function_node.FunctionNode):
    """`gy * (1 - y^2)` as a differentiable function of `(y, gy)`."""

    def __init__(self, x):
        super().__init__()
        self.x = x

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        return utils.force_array(_tanh_grad(y, gy)),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        y_ggx = y * ggx
        return -2 * gy * y_ggx, ggx - y * y_ggx


def tanh(x):
    """Element-wise hyperbolic tangent.

    Args:
        x (Variable or ndarray): Input float array.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    return Tanh().apply((x,))[0]
