"""Removing axes of length one (`chainer.functions.squeeze`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.reshape import reshape
from minichainer.utils import type_check


def argone(iterable):
    """Indices of the items equal to one (the axes `squeeze(axis=None)` removes)."""
    result = []
    for i, x in enumerate(iterable):
        if not isinstance(x, int):
            raise ValueError('elements in iterable must be int, got {!r}'.format(x))
        if x == 1:
            result.append(i)
    return result


class Squeeze(function_node.FunctionNode):
    """Remove axes of length one from the shape of an array."""

    def __init__(self, axis=None):
        if axis is None:
            self.axis = None
        elif isinstance(axis, int):
            self.axis = (axis,)
        elif isinstance(axis, tuple) and all(isinstance(a, int) for a in axis):
            self.axis = axis
        else:
            raise TypeError('axis must be None, int or tuple of ints, got {!r}'.format(axis))

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        x_type = in_types[0]
        if self.axis is not None:
            for a in self.axis:
                if a >= 0:
                    type_check.expect(a < x_type.ndim)
                else:
                    type_check.expect(-x_type.ndim <= a)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.squeeze(x, self.axis),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return reshape(gy, self.inputs[0].shape),


def squeeze(x, axis=None):
    """Remove axes of length one from `x`.

    Args:
        x (Variable or numpy.ndarray): Input variable.
        axis (None, int or tuple of int): Axes to remove (each must have length one);
            `None` removes all of them.

    Returns:
        Variable: The squeezed variable.

    Raises:
        ValueError: when a selected axis does not have length one.
    """
    y, = Squeeze(axis).apply((x,))
    return y
