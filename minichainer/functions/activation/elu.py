"""Exponential linear unit (`chainer.functions.elu`)."""
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
        self.retain_outputs((0,))
        return _elu(x, self.alpha),

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


def _elu(x, alpha):
    """`x` where `x > 0`, else `alpha * expm1(x)`, branch-free: `alpha *
    expm1(min(0, x)) + max(0, x)` (a masked copy is slow on random signs). Equal to
    Chainer's `y[x <= 0] = alpha * expm1(y[x <= 0])` in value, as one of the two terms
    is 0 (only the sign of a zero result can differ: `-0.0` in, or `alpha <= 0`)."""
    xp = backend.get_array_module(x)
    zero = x.dtype.type(0)
    y = utils.force_array(xp.minimum(zero, x))
    xp.expm1(y, out=y)
    y *= x.dtype.type(alpha)
    y += xp.maximum(zero, x)
    return y


def _elu_derivative(y, cond, alpha):
    """1 where `cond > 0`, else `y + alpha`.

    For `alpha >= 0` (`cond` is `y`) without a masked copy: with the 0/1 mask `m`,
    `m + (1 - m) * (min(y, 0) + alpha)` (each term exact; `min(y, 0)` keeps it finite
    where `m` is 1).
    """
    xp = backend.get_array_module(y)
    dtype = y.dtype.type
    if alpha < 0:
        gx = utils.force_array(xp.add(y, dtype(alpha)))
        xp.copyto(gx, dtype(1), where=cond > 0)
        return gx
    m = xp.empty(y.shape, y.dtype)
    xp.greater(cond, 0, out=m)
    gx = utils.force_array(xp.minimum(y, dtype(0)))
    gx += dtype(alpha)
    gx *= dtype(1) - m
    gx += m
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
