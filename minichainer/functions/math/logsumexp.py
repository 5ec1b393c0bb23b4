"""`logsumexp`: numerically stable `log(sum(exp(x)))` over axes."""
from minichainer import backend
from minichainer import utils
from minichainer import variable
from minichainer.configuration import config
from minichainer.functions.array import broadcast
from minichainer.functions.math import _axis
from minichainer.functions.math import _elementwise
from minichainer.functions.math import exponential


class LogSumExp(_elementwise.FloatAxisReduction):
    """Log-sum-exp over axes (max-shifted, so no overflow)."""

    def __init__(self, axis=None):
        self.axis = _axis.normalize_axis(axis, 'logsumexp')

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        m = x.max(axis=self.axis, keepdims=True)
        e = utils.force_array(x - m)
        xp.exp(e, out=e)
        s = e.sum(axis=self.axis)
        y = xp.log(s)
        y += m.reshape(s.shape)
        return utils.force_array(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        ndim = x.ndim
        axes = range(ndim) if self.axis is None else [a % ndim for a in self.axis]
        keep_shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        if gy.shape != keep_shape:
            gy = gy.reshape(keep_shape)
            y = y.reshape(keep_shape)
        if not config.enable_backprop:
            # No double backprop requested: one fused NumPy pass, no graph.
            xp = backend.get_array_module(x.array)
            gx = utils.force_array(x.array - y.array)
            xp.exp(gx, out=gx)
            gx *= gy.array
            return variable.Variable(gx, requires_grad=False),
        if keep_shape != x.shape:
            gy = broadcast.broadcast_to(gy, x.shape)
            y = broadcast.broadcast_to(y, x.shape)
        return gy * exponential.exp(x - y),


def logsumexp(x, axis=None):
    """Log-sum-exp of array elements over a given axis.

    Args:
        x (Variable or ndarray): Elements to log-sum-exp.
        axis (None, int, or tuple of int): Axes to reduce; None reduces all.

    Returns:
        Variable: Output variable.
    """
    return LogSumExp(axis).apply((x,))[0]
