"""Permute the axes of an array."""
import numpy

from minichainer.function_node import FunctionNode
from minichainer.utils import type_check


class Transpose(FunctionNode):
    """Permute the dimensions of an array."""

    def __init__(self, axes=None):
        self.axes = axes

    @property
    def label(self):
        return 'Transpose'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        if self.axes is not None and len(self.axes) != x.ndim:
            raise ValueError('transpose: axes {} do not match an array of {} dimensions'
                             .format(self.axes, x.ndim))
        return x.transpose(self.axes),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        axes = self.axes
        if axes is None:
            inv_axes = None
        else:
            ndim = len(axes)
            inv_axes = tuple(numpy.argsort([a % ndim for a in axes]).tolist())
        return Transpose(inv_axes).apply((gy,))


def transpose(x, axes=None):
    """Permute the axes of `x` (reverse them when `axes` is None)."""
    if axes is not None:
        axes = tuple(axes)
    return Transpose(axes).apply((x,))[0]
