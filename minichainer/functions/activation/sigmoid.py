"""Logistic sigmoid (`chainer.functions.sigmoid`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


class Sigmoid(_elementwise.FloatInput):
    """Logistic sigmoid, computed stably as `tanh(x / 2) / 2 + 1 / 2`."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        half = x.dtype.type(0.5)
        y = utils.force_array(x * half)     # tanh(x / 2) / 2 + 1 / 2 in one buffer
        xp.tanh(y, out=y)
        y *= half
        y += half
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fast.as_grad(_sigmoid_grad(y.array, gy.array)),
        return SigmoidGrad((None,)).apply((y, gy))


def _sigmoid_grad(y, gy):
    """`gy * y * (1 - y)` in one buffer."""
    xp = backend.get_array_module(y)
    gx = utils.force_array(xp.subtract(y.dtype.type(1), y))
    gx *= y
    gx *= gy
    return gx


class SigmoidGrad(function_node.FunctionNode):
    """`gy * y * (1 - y)` as a differentiable function of `(y, gy)`."""

    def __init__(self, inputs):
        super().__init__()
        self.x = inputs[0]

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('y', 'gy'))
        type_check.expect(in_types[0].dtype.kind == 'f')
        type_check.expect(in_types[1].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        return utils.force_array(_sigmoid_grad(y, gy)),

    def backward(self, indexes, grad_outputs):
        y, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        return ggx * gy * (1 - 2 * y), ggx * y * (1 - y)


def sigmoid(x):
    """Element-wise sigmoid logistic function, `1 / (1 + exp(-x))`.

    Args:
        x (Variable or ndarray): Input float array.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    y, = Sigmoid().apply((x,))
    return y
