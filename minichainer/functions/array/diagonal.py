"""Taking a diagonal (`chainer.functions.diagonal`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class Diagonal(function_node.FunctionNode):
    """Take the diagonal of two axes, as `numpy.diagonal`."""

    def __init__(self, offset, axis1, axis2):
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        in_type = in_types[0]
        type_check.expect(max(self.axis1, self.axis2) < in_type.ndim)
        type_check.expect(-in_type.ndim <= min(self.axis1, self.axis2))

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        return x.diagonal(offset=self.offset, axis1=self.axis1, axis2=self.axis2),

    def backward(self, indexes, grad_outputs):
        return DiagonalGrad(self._in_shape, self.offset, self.axis1, self.axis2).apply(
            grad_outputs)


class DiagonalGrad(function_node.FunctionNode):
    """Gradient of `Diagonal`: writes the values onto the diagonal of zeros."""

    def __init__(self, out_shape, offset, axis1, axis2):
        self.out_shape = out_shape
        self.offset = offset
        self.axis1 = axis1
        self.axis2 = axis2

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self.out_shape, gy.dtype)
        if xp is not numpy:
            # the diagonal's positions written through a view with the two axes last
            n = gy.shape[-1]
            rows = xp.arange(n) + max(-self.offset, 0)
            cols = xp.arange(n) + max(self.offset, 0)
            xp.moveaxis(gx, (self.axis1, self.axis2), (-2, -1))[..., rows, cols] = gy
            return gx,
        view = gx.diagonal(offset=self.offset, axis1=self.axis1, axis2=self.axis2)
        view.setflags(write=True)  # NumPy returns the diagonal view read-only
        view[...] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return Diagonal(self.offset, self.axis1, self.axis2).apply(grad_outputs)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """Take the diagonal of `x` over `axis1` and `axis2`, as `numpy.diagonal`.

    Args:
        x (Variable or numpy.ndarray): Input variable (ndim >= 2).
        offset (int): Offset of the diagonal from the main one.
        axis1 (int): First axis of the 2-D sub-arrays.
        axis2 (int): Second axis of the 2-D sub-arrays.

    Returns:
        Variable: The diagonal (its axis is last).
    """
    return Diagonal(offset, axis1, axis2).apply((x,))[0]
