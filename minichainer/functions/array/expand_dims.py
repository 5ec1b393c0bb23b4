"""Inserting an axis of length one (`chainer.functions.expand_dims`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.reshape import reshape
from minichainer.utils import type_check


class ExpandDims(function_node.FunctionNode):
    """Insert an axis of length one without copying."""

    def __init__(self, axis):
        self.axis = int(axis)

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        if self.axis >= 0:
            type_check.expect(x_type.ndim >= self.axis)
        else:
            type_check.expect(x_type.ndim >= -self.axis - 1)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.expand_dims(x, self.axis),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return reshape(gy, self.inputs[0].shape),


def expand_dims(x, axis):
    """Insert an axis of length one into `x` at position `axis`.

    Args:
        x (Variable or numpy.ndarray): Input variable.
        axis (int): Position of the new axis (negative counts from the end of the output).

    Returns:
        Variable: Variable with one more dimension.
    """
    y, = ExpandDims(axis).apply((x,))
    return y
