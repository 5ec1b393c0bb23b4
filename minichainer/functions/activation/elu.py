"""Exponential linear unit (`chainer.functions.elu`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions import _fast
from minichainer import utils
from minichainer.functions.math import _elementwise


class ELU(_elementwise.FloatInput):
    """Exponential Linear Unit: `x` if `x > 0` else `alpha * (exp(x) - 1)`."""

    def __init__(self, alpha=1.0):
        self.alpha = float(alpha)

    def forward(self, inputs):
        if self.alpha < 0:
            self.retain_inputs((0,))
        x, = inputs
        y = x.copy()
        neg = y <= 0
        y[neg] = self.alpha * numpy.expm1(y[neg])
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        if self.alpha < 0:
            cond, = self.get_retained_inputs()
        else:
            cond = y
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx = _elu_derivative(y.array, cond.array, self.alpha)
            gx *= gy.array
            return _fast.as_grad(gx),
        return ELUGrad(self.alpha, cond.array).apply((y,))[0] * gy,


def _elu_derivative(y, cond, alpha):
    """1 where `cond > 0`, else `y + alpha` (one buffer and a boolean mask)."""
    xp = backend.get_array_module(y)
    gx = utils.force_array(xp.add(y, y.dtype.type(alpha)))
    xp.copyto(gx, y.dtype.type(1), where=cond > 0)
    return gx


class ELUGrad(function_node.FunctionNode):
    """ELU derivative from the output `y`: 1 where `cond > 0`, else `y + alpha`."""

    def __init__(self, alpha, cond):
        self.alpha = alpha
        self.cond = cond

    def forward(self, inputs):
        y, = inputs
        return utils.force_array(_elu_derivative(y, self.cond, self.alpha)),

    def backward(self, indexes, grad_outputs):
        ggx, = grad_outputs
        return ggx * (self.cond <= 0),


def elu(x, alpha=1.0):
    """Exponential Linear Unit function.

    `f(x) = x` for `x > 0` and `alpha * (exp(x) - 1)` otherwise.

    Args:
        x (Variable or ndarray): Input float array.
        alpha (float): Parameter `alpha`.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    return ELU(alpha=alpha).apply((x,))[0]
