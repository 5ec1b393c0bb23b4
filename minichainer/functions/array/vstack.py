"""Vertical (row-wise) stacking (`chainer.functions.vstack`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.split_axis import split_axis
from minichainer.utils import type_check


class Vstack(function_node.FunctionNode):
    """Concatenate arrays vertically, as `numpy.vstack`."""

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        ndim = type_check.eval(in_types[0].ndim)
        for i in range(1, type_check.eval(in_types.size())):
            type_check.expect(in_types[0].dtype == in_types[i].dtype,
                              in_types[0].ndim == in_types[i].ndim)
            if ndim <= 1:
                type_check.expect(in_types[0].shape == in_types[i].shape)
                continue
            for d in range(1, ndim):
                type_check.expect(in_types[0].shape[d] == in_types[i].shape[d])

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.vstack(xs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shape = self.inputs[0].shape
        ndim = len(shape)
        if len(self.inputs) == 1:
            if ndim <= 1:
                return reshape(gy, shape),
            return gy,
        if ndim <= 1:
            gxs = split_axis(gy, len(self.inputs), 0)
            return tuple(reshape(g, shape) for g in gxs)
        sizes = numpy.cumsum([node.shape[0] for node in self.inputs[:-1]])
        return split_axis(gy, sizes, 0)


def vstack(xs):
    """Concatenate variables vertically (along axis 0; 0-d/1-D inputs become rows).

    Args:
        xs (sequence of Variable or numpy.ndarray): Inputs of one dtype and
            ndim whose shapes agree except along axis 0 (exactly, for 0-d/1-D inputs).

    Returns:
        Variable: The stacked variable.
    """
    return Vstack().apply(xs)[0]
