"""Stacking along a new axis (`chainer.functions.stack`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array import separate
from minichainer.utils import type_check


class Stack(function_node.FunctionNode):
    """Join arrays of one shape along a new axis."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.expect(-in_types[0].ndim - 1 <= self.axis,
                          self.axis <= in_types[0].ndim)
        dtype = in_types[0].dtype
        shape = in_types[0].shape
        for x_type in in_types[1:]:
            type_check.expect(x_type.dtype == dtype, x_type.shape == shape)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.stack(inputs, axis=self.axis),

    def backward(self, indexes, grad_outputs):
        return separate.separate(grad_outputs[0], self.axis)


def stack(xs, axis=0):
    """Join variables of one shape and dtype along a new axis.

    Args:
        xs (sequence of Variable or numpy.ndarray): The inputs.
        axis (int): Position of the new axis in the output
            (`-xs[0].ndim - 1 <= axis <= xs[0].ndim`).

    Returns:
        Variable: The stacked variable.
    """
    return Stack(axis).apply(xs)[0]
