"""`cumsum`: cumulative sum over an axis."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _axis
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


def _reverse_index(axis):
    return (slice(None),) * axis + (slice(None, None, -1),)


class Cumsum(function_node.FunctionNode):
    """Cumulative sum of array elements over a given axis."""

    def __init__(self, axis=None):
        if axis is None or (isinstance(axis, int) and not isinstance(axis, bool)):
            self.axis = axis
        else:
            raise TypeError('cumsum: axis must be an int or None, got {!r}'.format(axis))

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)
        if self.axis is not None:
            _axis.check_axes(type_check, in_types[0], (self.axis,))

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return utils.force_array(xp.cumsum(x, axis=self.axis)),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if not _fast.needs_graph():
            g = gy.array
            xp = backend.get_array_module(g)
            axis = 0 if self.axis is None else self.axis % len(self._in_shape)
            gx = xp.flip(xp.cumsum(xp.flip(g, axis), axis), axis)
            return _fast.as_grad(gx.reshape(self._in_shape)),
        if self.axis is None:
            rev = _reverse_index(0)
            gx = cumsum(gy[rev], 0)[rev]
            return gx.reshape(self._in_shape),
        axis = self.axis % len(self._in_shape)
        rev = _reverse_index(axis)
        return cumsum(gy[rev], axis)[rev],


def cumsum(x, axis=None):
    """Cumulative sum of array elements over a given axis.

    Args:
        x (Variable or ndarray): Elements to accumulate.
        axis (int or None): Axis along which the sum is taken; None flattens.

    Returns:
        Variable: Output variable.
    """
    return Cumsum(axis).apply((x,))[0]
