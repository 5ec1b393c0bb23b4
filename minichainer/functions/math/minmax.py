"""Reductions `max`, `min` and index reductions `argmax`, `argmin`."""
import numpy

from minichainer import backend
from minichainer import configuration
from minichainer import function
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.array import broadcast
from minichainer.functions.math import _axis
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


class SelectorBase(_elementwise.FloatAxisReduction):
    """Select the extreme element over an axis or a set of axes."""

    def __init__(self, axis=None, keepdims=False):
        self.axis = _axis.normalize_axis(axis, type(self).__name__.lower())
        self.keepdims = keepdims

    def _fwd(self, x, xp):
        raise NotImplementedError('_fwd should be implemented in sub-class.')

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(self._fwd(x, xp)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        ndim = x.ndim
        if self.axis is None:
            axes = range(ndim)
        else:
            axes = [a % ndim for a in self.axis]
        # Put back the reduced axes as length-1 axes so that y and gy broadcast.
        shape = tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        cond = (x.array == y.array.reshape(shape))
        if not _fast.needs_graph():
            gx = cond * grad_outputs[0].array.reshape(shape)
            return _fast.as_grad(utils.force_array(gx, x.dtype)),
        gy = grad_outputs[0].reshape(shape)
        gy = _broadcast_to(gy, x.shape)
        return gy * cond.astype(gy.dtype, copy=False),


def _broadcast_to(v, shape):
    if v.shape == shape:
        return v
    return broadcast.broadcast_to(v, shape)


_SHORT_AXIS = 16


def _short_inner_axis(x, axis):
    """The axis of a one-axis reduction over x's short, innermost (contiguous) axis,
    else None. NumPy reduces such an axis one output at a time (~40 ns each: `amax`
    over (64, 1024, 2) takes 2.6 ms); a running maximum over its slices takes 0.07."""
    if axis is None or len(axis) != 1 or x.ndim < 2:
        return None
    a = axis[0] % x.ndim
    if x.shape[a] > _SHORT_AXIS or x.strides[a] != x.itemsize or x.size < 4096:
        return None
    return a


def _running(op, x, a, keepdims):
    """`op.reduce(x, axis=a)` as a running `op` over the slices of axis `a` (the
    same elements in the same order, so the same result)."""
    index = [slice(None)] * x.ndim
    index[a] = 0
    out = x[tuple(index)].copy()
    for i in range(1, x.shape[a]):
        index[a] = i
        op(out, x[tuple(index)], out=out)
    return out if not keepdims else out.reshape(x.shape[:a] + (1,) + x.shape[a + 1:])


class Max(SelectorBase):
    """Maximum over axes (ties all receive the gradient, as Chainer)."""

    def _fwd(self, x, xp):
        a = _short_inner_axis(x, self.axis)
        if a is not None:
            return _running(xp.maximum, x, a, self.keepdims)
        return xp.amax(x, axis=self.axis, keepdims=self.keepdims)


class Min(SelectorBase):
    """Minimum over axes (ties all receive the gradient, as Chainer)."""

    def _fwd(self, x, xp):
        a = _short_inner_axis(x, self.axis)
        if a is not None:
            return _running(xp.minimum, x, a, self.keepdims)
        return xp.amin(x, axis=self.axis, keepdims=self.keepdims)


class IndexSelectorBase(function_node.FunctionNode):
    """Select the index of the extreme element over an axis."""

    def __init__(self, axis=None):
        if axis is None or (isinstance(axis, int) and not isinstance(axis, bool)):
            self.axis = axis
        else:
            raise TypeError('{}: axis must be None or an int, got {!r}'.format(
                type(self).__name__.lower(), axis))

    def _fwd(self, x, xp):
        raise NotImplementedError('_fwd should be implemented in sub-class.')

    def check_type_forward(self, in_types):
        type_check.expect(
            in_types.size() == 1,
            in_types[0].dtype.kind == 'f',
        )
        if self.axis is not None:
            _axis.check_axes(type_check, in_types[0], (self.axis,))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(self._fwd(x, xp)),

    def backward(self, indexes, grad_outputs):
        return None,


class ArgMin(IndexSelectorBase):
    """Index of the minimum (int32)."""

    def _fwd(self, x, xp):
        return xp.argmin(x, axis=self.axis).astype(numpy.int32)


class ArgMax(IndexSelectorBase):
    """Index of the maximum (int32)."""

    def _fwd(self, x, xp):
        return xp.argmax(x, axis=self.axis).astype(numpy.int32)


def max(x, axis=None, keepdims=False):  # noqa: A001 - Chainer's name
    """Maximum of array elements over a given axis.

    Args:
        x (Variable or ndarray): Array to be maximized.
        axis (None, int, or tuple of int): Axes to reduce; None reduces all.
        keepdims (bool): Keep the reduced axes as length-1 axes.

    Returns:
        Variable: Output variable.
    """
    return Max(axis, keepdims).apply((x,))[0]


def min(x, axis=None, keepdims=False):  # noqa: A001 - Chainer's name
    """Minimum of array elements over a given axis (see
    [`max`][minichainer.functions.math.minmax.max])."""
    return Min(axis, keepdims).apply((x,))[0]


def argmax(x, axis=None):
    """Index of the maximum over `axis` (None: of the flattened array), int32.

    Not differentiable.
    """
    # Not differentiable: the result is not linked into the graph, so backward() from
    # it is a no-op (Chainer's test relies on that) instead of a missing-grad error;
    # linked while an exporter traces the forward pass (minichainer.onnx).
    if configuration.config.record_non_differentiable:
        return ArgMax(axis).apply((x,))[0]
    with function.no_backprop_mode():
        return ArgMax(axis).apply((x,))[0]


def argmin(x, axis=None):
    """Index of the minimum over `axis` (None: of the flattened array), int32.

    Not differentiable.
    """
    # Not differentiable: not linked into the graph (see argmax), but while exporting.
    if configuration.config.record_non_differentiable:
        return ArgMin(axis).apply((x,))[0]
    with function.no_backprop_mode():
        return ArgMin(axis).apply((x,))[0]
