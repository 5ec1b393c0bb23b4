"""Depth-wise stacking (`chainer.functions.dstack`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.hstack import check_stack_types
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.split_axis import split_axis


class Dstack(function_node.FunctionNode):
    """Concatenate arrays along the third axis, as `numpy.dstack`."""

    def check_type_forward(self, in_types):
        check_stack_types(in_types, 2, 2, True)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.dstack(xs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shape = self.inputs[0].shape
        ndim = len(shape)
        if len(self.inputs) == 1:
            if ndim <= 2:
                return reshape(gy, shape),
            return gy,
        if ndim <= 2:
            gxs = split_axis(gy, len(self.inputs), 2)
            return tuple(reshape(g, shape) for g in gxs)
        sizes = numpy.cumsum([node.shape[2] for node in self.inputs[:-1]])
        return split_axis(gy, sizes, 2)


def dstack(xs):
    """Concatenate variables along the third axis (inputs of ndim < 3 are promoted first).

    Args:
        xs (sequence of Variable or numpy.ndarray): Inputs of one dtype and
            ndim whose shapes agree except along axis 2 (exactly, for ndim <= 2).

    Returns:
        Variable: The stacked variable.
    """
    return Dstack().apply(xs)[0]
