"""Leaky rectifier (`chainer.functions.leaky_relu`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise


class LeakyReLU(_elementwise.FloatInput):
    """Leaky rectifier unit: `x` if `x > 0` else `slope * x`."""

    def __init__(self, slope=0.2):
        self.slope = slope

    def forward(self, inputs):
        x, = inputs
        slope = x.dtype.type(self.slope)
        if 0 < slope <= 1:
            # max(x, slope * x) is x where x > 0 and slope * x elsewhere, exactly:
            # one pass fewer than multiplying by the slopes
            xp = backend.get_array_module(x)
            y = utils.force_array(xp.multiply(x, slope))
            xp.maximum(x, y, out=y)
        else:
            y = _slopes(x, self.slope)
            y *= x
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
        if not _fast.needs_graph():
            gx = _slopes(cond, self.slope)
            gx *= grad_outputs[0].array
            return _fast.as_grad(gx),
        return _LeakyReLUGrad(cond, self.slope).apply(grad_outputs)


def _slopes(cond, slope):
    """Array of 1 where `cond > 0` and `slope` elsewhere, in `cond`'s dtype.

    Multiplying by it gives exactly Chainer's `y = x.copy(); y[x <= 0] *= slope`;
    for a slope in [0, 1] it is built in its own buffer, without a boolean mask.
    """
    xp = backend.get_array_module(cond)
    slope = cond.dtype.type(slope)
    if 0 <= slope <= 1:
        s = xp.empty(cond.shape, cond.dtype)
        xp.greater(cond, 0, out=s)
        xp.maximum(s, slope, out=s)
        return s
    return xp.where(cond > 0, cond.dtype.type(1), slope)


class _LeakyReLUGrad(function_node.FunctionNode):

    def __init__(self, cond, slope):
        self.cond = cond
        self.slope = slope

    def forward(self, inputs):
        gy, = inputs
        gx = _slopes(self.cond, self.slope)
        gx *= gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return _LeakyReLUGrad(self.cond, self.slope).apply(grad_outputs)


def leaky_relu(x, slope=0.2):
    """Leaky Rectified Linear Unit: `x` for `x >= 0`, `slope * x` otherwise.

    Args:
        x (Variable or ndarray): Input float array.
        slope (float): Slope `a` of the negative part.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    return LeakyReLU(slope).apply((x,))[0]
