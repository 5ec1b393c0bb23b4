"""Leaky rectifier (``chainer.functions.leaky_relu``)."""
from minichainer import function_node
from minichainer.utils import type_check


class LeakyReLU(function_node.FunctionNode):
    """Leaky rectifier unit: ``x`` if ``x > 0`` else ``slope * x``."""

    def __init__(self, slope=0.2):
        self.slope = slope

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        x_type, = in_types
        type_check.expect(x_type.dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        y = x.copy()
        y[x <= 0] *= self.slope
        if self.slope >= 0:
            self.retain_outputs((0,))
        else:
            self.retain_inputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        if self.slope >= 0:
            cond = self.get_retained_outputs()[0].array
        else:
            cond = self.get_retained_inputs()[0].array
        return _LeakyReLUGrad(cond, self.slope).apply(grad_outputs)


class _LeakyReLUGrad(function_node.FunctionNode):

    def __init__(self, cond, slope):
        self.cond = cond
        self.slope = slope

    def forward(self, inputs):
        gy, = inputs
        gx = gy.copy()
        gx[self.cond <= 0] *= self.slope
        return gx,

    def backward(self, indexes, grad_outputs):
        return _LeakyReLUGrad(self.cond, self.slope).apply(grad_outputs)


def leaky_relu(x, slope=0.2):
    """Leaky Rectified Linear Unit: ``x`` for ``x >= 0``, ``slope * x`` otherwise.

    Args:
        x (~minichainer.Variable or ndarray): Input float array.
        slope (float): Slope ``a`` of the negative part.

    Returns:
        ~minichainer.Variable: Output of the same shape and dtype.
    """
    return LeakyReLU(slope).apply((x,))[0]
