"""Concatenated ReLU (`chainer.functions.crelu`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array import get_item
from minichainer.utils import type_check


class CReLU(function_node.FunctionNode):
    """Concatenated ReLU: `concat((relu(x), relu(-x)), axis)`."""

    def __init__(self, axis=1):
        if not isinstance(axis, int) or isinstance(axis, bool):
            raise TypeError('crelu: axis must be an integer, got {!r}'.format(axis))
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].ndim > self.axis,
            in_types[0].ndim >= -self.axis,
        )

    def get_output_shape(self, input_shape):
        output_shape = list(input_shape)
        output_shape[self.axis] *= 2
        return tuple(output_shape)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        y = xp.empty(self.get_output_shape(x.shape), dtype=x.dtype)
        y_former, y_latter = xp.split(y, 2, axis=self.axis)
        zero = x.dtype.type(0)
        xp.maximum(zero, x, out=y_former)
        xp.maximum(zero, -x, out=y_latter)
        self.retain_inputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        axis = self.axis % x.ndim
        n = x.shape[axis]
        lead = (slice(None),) * axis
        gy_former = get_item.get_item(gy, lead + (slice(0, n),))
        gy_latter = get_item.get_item(gy, lead + (slice(n, 2 * n),))
        xa = x.array
        dtype = xa.dtype
        return gy_former * (xa > 0).astype(dtype) - gy_latter * (xa < 0).astype(dtype),


def crelu(x, axis=1):
    """Concatenated Rectified Linear Unit: `concat((max(0, x), max(0, -x)), axis)`.

    Args:
        x (Variable or ndarray): Input float array.
        axis (int): Axis along which the two halves are concatenated.

    Returns:
        Variable: Output whose `shape[axis]` is twice that of `x`.

    Raises:
        TypeError: `axis` is not an int.
    """
    return CReLU(axis=axis).apply((x,))[0]
