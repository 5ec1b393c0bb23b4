"""Separating an array along an axis (`chainer.functions.separate`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array import stack
from minichainer.utils import type_check


class Separate(function_node.FunctionNode):
    """Split an array into its slices along an axis, removing that axis."""

    def __init__(self, axis):
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        if self.axis >= 0:
            type_check.expect(self.axis < x_type.ndim)
        else:
            type_check.expect(-self.axis <= x_type.ndim)

    def forward(self, inputs):
        x, = inputs
        self._xp = backend.get_array_module(x)
        axis = self.axis % x.ndim
        index = (slice(None),) * axis
        # The trailing Ellipsis keeps 0-d results arrays (not NumPy scalars).
        ys = tuple(x[index + (i, Ellipsis)] for i in range(x.shape[axis]))
        self._shape = x.shape[:axis] + x.shape[axis + 1:]
        self._dtype = x.dtype
        return ys

    def backward(self, indexes, grad_outputs):
        xp = self._xp
        grads = [xp.zeros(self._shape, dtype=self._dtype) if g is None else g
                 for g in grad_outputs]
        return stack.stack(grads, self.axis),


def separate(x, axis=0):
    """Separate `x` into the slices along `axis` (the inverse of
    [`stack`][minichainer.functions.array.stack.stack]).

    Args:
        x (Variable or numpy.ndarray): The variable to separate.
        axis (int): The axis to separate along; it is removed from the outputs.

    Returns:
        tuple of Variable: `x.shape[axis]` variables.
    """
    return Separate(axis).apply((x,))
