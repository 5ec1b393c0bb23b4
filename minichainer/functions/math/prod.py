"""`prod`: product over axes (exact gradients, zeros allowed)."""
import numpy

from minichainer import backend
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.array import broadcast
from minichainer.functions.math import _axis
from minichainer.functions.math import _elementwise
from minichainer.functions.math.cumprod import _shift
from minichainer.functions.math.cumprod import Cumprod


class Prod(_elementwise.FloatAxisReduction):
    """Product of array elements over a given axis."""

    keepdims = False

    def __init__(self, axis=None, keepdims=False):
        self.axis = _axis.normalize_axis(axis, 'prod')
        self.keepdims = keepdims

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(
            xp.prod(x, axis=self.axis, keepdims=self.keepdims), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        ndim = x.ndim
        if self.axis is None:
            axes = tuple(range(ndim))
        else:
            axes = tuple(sorted(a % ndim for a in self.axis))
        keep_shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        if gy.shape != keep_shape:
            gy = gy.reshape(keep_shape)
        if ndim == 0:
            return gy,
        kept = tuple(a for a in range(ndim) if a not in axes)
        perm = axes + kept
        if not _fast.needs_graph():
            return _fast.as_grad(_prod_grad(x.array, gy.array, axes, kept)),
        n_red = utils.size_of_shape([x.shape[a] for a in axes])
        kept_shape = tuple(x.shape[a] for a in kept)
        xt = x.transpose(perm) if perm != tuple(range(ndim)) else x
        t_shape = xt.shape
        xr = xt.reshape((n_red,) + kept_shape)
        # prod of everything but x_i = (prod_{j<i} x_j) * (prod_{j>i} x_j)
        left = _exclusive_cumprod(xr)
        right = _exclusive_cumprod(xr[::-1])[::-1]
        gx = (left * right).reshape(t_shape)
        if perm != tuple(range(ndim)):
            gx = gx.transpose(tuple(numpy.argsort(perm)))
        return gx * broadcast.broadcast_to(gy, x.shape),


def _prod_grad(x, gy, axes, kept):
    """Array gradient of `Prod` (`gy` has the keepdims shape)."""
    xp = backend.get_array_module(x)
    if x.size == 0:
        return xp.zeros_like(x)
    perm = axes + kept
    kept_shape = tuple(x.shape[a] for a in kept)
    xt = xp.transpose(x, perm)
    t_shape = xt.shape
    xr = xt.reshape((-1,) + kept_shape)
    ones = xp.ones((1,) + kept_shape, x.dtype)
    left = xp.cumprod(xp.concatenate([ones, xr[:-1]]), axis=0)
    right = xp.cumprod(xp.concatenate([ones, xr[:0:-1]]), axis=0)[::-1]
    left *= right
    gx = xp.transpose(left.reshape(t_shape), tuple(numpy.argsort(perm)))
    return utils.force_array(gx * gy, x.dtype)


def _exclusive_cumprod(a):
    shifted = _shift(a, 0, 1, 1)
    return Cumprod(0).apply((shifted,))[0]


def prod(x, axis=None, keepdims=False):
    """Product of array elements over a given axis.

    Args:
        x (Variable or ndarray): Elements to multiply.
        axis (None, int, or tuple of int): Axes to reduce; None reduces all.
        keepdims (bool): Keep the reduced axes as length-1 axes.

    Returns:
        Variable: Output variable.
    """
    return Prod(axis, keepdims).apply((x,))[0]
