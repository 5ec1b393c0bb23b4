"""Reshape without copying."""
from minichainer import variable
from minichainer.function_node import FunctionNode
from minichainer.utils import type_check


def _count_unknown_dims(shape):
    return sum(1 for s in shape if s < 0)


class Reshape(FunctionNode):
    """Reshape an array to a given shape (one dimension may be -1)."""

    def __init__(self, shape):
        self.shape = shape
        self._cnt = _count_unknown_dims(shape)
        if self._cnt > 1:
            raise ValueError('reshape: only one dimension of shape can be -1, got {}'.format(
                shape))

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        x_type, = in_types
        if self._cnt == 0:
            type_check.expect(type_check.prod(x_type.shape) == type_check.prod(self.shape))
        else:
            known = 1
            for s in self.shape:
                if s > 0:
                    known *= s
            size_var = type_check.make_variable(known, 'known_size(={})'.format(known))
            type_check.expect(type_check.prod(x_type.shape) % size_var == 0)

    def forward(self, inputs):
        x, = inputs
        return x.reshape(self.shape),

    def backward(self, indexes, grad_outputs):
        gx, = grad_outputs
        return reshape(gx, self.inputs[0].shape),


def reshape(x, shape):
    """Reshape `x` to `shape` (an int or a tuple; one entry may be -1)."""
    if isinstance(shape, int):
        shape = (shape,)
    else:
        shape = tuple(int(s) for s in shape)
    if x.shape == shape:
        return variable.as_variable(x)
    y, = Reshape(shape).apply((x,))
    return y
