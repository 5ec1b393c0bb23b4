"""Concatenation along an existing axis (``chainer.functions.concat``)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.split_axis import split_axis
from minichainer.utils import type_check


class Concat(function_node.FunctionNode):
    """Concatenate arrays along an axis."""

    def __init__(self, axis=1):
        if not isinstance(axis, int):
            raise TypeError('Concat: axis must be int, got {}'.format(type(axis).__name__))
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        type_check.expect(in_types[0].ndim > type_check.make_variable(self.axis, 'axis'))
        type_check.expect(-in_types[0].ndim <= self.axis, self.axis < in_types[0].ndim)
        ndim = type_check.eval(in_types[0].ndim)
        axis = self.axis % ndim
        for i in range(1, type_check.eval(in_types.size())):
            type_check.expect(in_types[0].dtype == in_types[i].dtype,
                              in_types[0].ndim == in_types[i].ndim)
            for d in range(ndim):
                if d != axis:
                    type_check.expect(in_types[0].shape[d] == in_types[i].shape[d])

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.concatenate(xs, self.axis),

    def backward(self, indexes, grad_outputs):
        if len(self.inputs) == 1:
            return grad_outputs
        axis = self.axis
        sizes = numpy.cumsum([node.shape[axis] for node in self.inputs[:-1]])
        gy, = grad_outputs
        return split_axis(gy, sizes, axis)


def concat(xs, axis=1):
    """Concatenate variables along an existing axis.

    Args:
        xs (sequence of ~minichainer.Variable or numpy.ndarray): Inputs of one dtype and
            equal shapes except along ``axis``.
        axis (int): The axis to join along (default 1).

    Returns:
        ~minichainer.Variable: The concatenated variable.
    """
    y, = Concat(axis).apply(xs)
    return y
