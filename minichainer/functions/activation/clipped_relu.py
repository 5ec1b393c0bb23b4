"""Clipped rectifier (`chainer.functions.clipped_relu` and `relu6`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


class ClippedReLU(function_node.FunctionNode):
    """Clipped Rectifier Unit: `min(max(0, x), z)`."""

    def __init__(self, z):
        if not isinstance(z, float):
            raise TypeError('clipped_relu: z must be a float, got {!r}'.format(z))
        if not z > 0:
            raise ValueError('clipped_relu: z must be positive, got {}'.format(z))
        self.cap = z

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        y = utils.force_array(xp.maximum(0, x), x.dtype)
        xp.minimum(y, self.cap, out=y)
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        if not _fast.needs_graph():
            return _fast.as_grad(_clipped_grad(grad_outputs[0].array, x.array,
                                               self.cap)),
        return ClippedReLUGrad2(x.array, self.cap).apply(grad_outputs)


def _clipped_grad(gy, x, cap):
    """`gy * ((0 < x) & (x < cap))`: the 0/1 mask built in the result's buffer, by
    multiplications (a masked copy is slow on random masks)."""
    xp = backend.get_array_module(gy)
    gx = xp.empty(x.shape, x.dtype)
    xp.greater(x, 0, out=gx)
    xp.multiply(gx, xp.less(x, cap), out=gx)
    gx *= gy
    return gx


class ClippedReLUGrad2(function_node.FunctionNode):
    """Gradient of ClippedReLU: `gy * (0 < x < z)` with `x` a constant."""

    def __init__(self, x, z):
        self.x = x
        self.cap = z

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('gy',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        gy, = inputs
        return utils.force_array(_clipped_grad(gy, self.x, self.cap)),

    def backward(self, indexes, grad_outputs):
        return ClippedReLUGrad2(self.x, self.cap).apply(grad_outputs)


def clipped_relu(x, z=20.0):
    """Clipped Rectifier Unit function, `min(max(0, x), z)`.

    Args:
        x (Variable or ndarray): Input float array.
        z (float): Clipping value (> 0). Default 20.0.

    Returns:
        Variable: Output of the same shape and dtype.

    Raises:
        TypeError: `z` is not a float.
    """
    y, = ClippedReLU(z).apply((x,))
    return y


def relu6(x):
    """Rectifier clipped at 6, `min(max(0, x), 6)`."""
    y, = ClippedReLU(6.0).apply((x,))
    return y
