"""`average` (`mean`): plain or weighted mean over axes."""
from minichainer import backend
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.array import broadcast
from minichainer.functions.array import reshape
from minichainer.functions.math import _axis
from minichainer.functions.math import _elementwise
from minichainer.functions.math import sum as sum_mod


class Mean(_elementwise.FloatAxisReduction):
    """Mean of array elements over a given axis."""

    def __init__(self, axis, keepdims):
        self.axis = _axis.normalize_axis(axis, 'average')
        self.keepdims = keepdims

    def forward(self, inputs):
        x, = inputs
        if self.axis is None:
            n = x.size
        else:
            n = 1
            for a in self.axis:
                n *= x.shape[a]
        self.multiplier = 1.0 / n if n else float('nan')
        return utils.force_array(
            x.mean(axis=self.axis, keepdims=self.keepdims), x.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        in_shape = self.inputs[0].shape
        if not _fast.needs_graph():
            g = gy.array * gy.dtype.type(self.multiplier)
            if not (len(in_shape) == 0 or self.axis is None or self.keepdims):
                ndim = len(in_shape)
                g = g.reshape(tuple(1 if i in [a % ndim for a in self.axis] else s
                                    for i, s in enumerate(in_shape)))
            gx = backend.get_array_module(g).empty(in_shape, g.dtype)
            gx[...] = g
            return _fast.as_grad(gx),
        gy = gy * self.multiplier
        ndim = len(in_shape)
        if not (ndim == 0 or self.axis is None or self.keepdims):
            gy = gy.reshape(sum_mod.unreduced_shape(gy.shape, self.axis, ndim))
        if gy.shape != in_shape:
            gy = broadcast.broadcast_to(gy, in_shape)
        return gy,


def _mean(x, axis, keepdims=False):
    y, = Mean(axis, keepdims).apply((x,))
    return y


def average(x, axis=None, weights=None, keepdims=False):
    """Weighted average of array elements over a given axis.

    Args:
        x (Variable or ndarray): Elements to average.
        axis (None, int or tuple of int): Axes to average over; None means all.
        weights (None, Variable or ndarray): Weights. With `axis`
            None it must have the shape of `x`; with an int axis it must be
            1-D of length `x.shape[axis]`. None means all ones (plain mean).
        keepdims (bool): Keep the reduced axes as length-1 axes.

    Returns:
        Variable: Output variable.

    Raises:
        ValueError: duplicate axes, or a tuple of several axes with weights.
    """
    if weights is None:
        return _mean(x, axis, keepdims)

    if axis is None:
        pass
    elif isinstance(axis, tuple):
        axis = sorted(a + x.ndim if a < 0 else a for a in axis)
        if len(set(axis)) != len(axis):
            raise ValueError("average: duplicate value in 'axis': {}".format(tuple(axis)))
        axis = tuple(axis)
    else:
        if axis < 0:
            axis += x.ndim
        axis = (axis,)
    if axis is not None and len(axis) > 1:
        raise ValueError(
            'average: tuple axis is not supported when weights is given, got axis={}'
            .format(axis))
    divider = sum_mod.sum(weights)
    if axis is not None:
        w_shape = tuple(d if i in axis else 1 for i, d in enumerate(x.shape))
        weights = broadcast.broadcast_to(reshape.reshape(weights, w_shape), x.shape)
    x = x * weights
    x_sum = sum_mod.sum(x, axis, keepdims)
    divider = broadcast.broadcast_to(divider, x_sum.shape)
    return x_sum / divider
