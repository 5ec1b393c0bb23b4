"""Softplus (`chainer.functions.softplus`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.activation import sigmoid
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


class Softplus(_elementwise.FloatInput):
    """Softplus: `log(1 + exp(beta * x)) / beta`, computed without overflow."""

    def __init__(self, beta=1.0):
        self.beta = float(beta)
        self.beta_inv = float(1.0 / beta)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        bx = self.beta * x
        y = (xp.fmax(bx, 0) + xp.log1p(xp.exp(-xp.fabs(bx)))) * self.beta_inv
        return utils.force_array(y, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return SoftplusGrad((self.beta,)).apply((x, gy))


class SoftplusGrad(function_node.FunctionNode):
    """`gy * sigmoid(beta * x)` as a differentiable function of `(x, gy)`."""

    def __init__(self, inputs):
        super().__init__()
        self.beta = inputs[0]

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        x_type, gy_type = in_types
        type_check.expect(x_type.dtype.kind == 'f')
        type_check.expect(gy_type.dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        xp = backend.get_array_module(x)
        # Chainer's (1 - 1 / (1 + exp(beta * x))) * gy, in one buffer
        gx = utils.force_array(self.beta * x, x.dtype)
        xp.exp(gx, out=gx)
        gx += 1
        xp.divide(1, gx, out=gx)
        xp.subtract(1, gx, out=gx)
        gx *= gy
        return utils.force_array(gx, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        s = sigmoid.sigmoid(self.beta * x)
        # d/dx sigmoid(beta x) = beta * s * (1 - s) = beta * e / (1 + e)^2
        gx = ggx * gy * self.beta * s * (1 - s)
        ggy = SoftplusGrad((self.beta,)).apply((x, ggx))[0]
        return gx, ggy


def softplus(x, beta=1.0):
    """Element-wise softplus, `log(1 + exp(beta * x)) / beta`.

    Args:
        x (Variable or ndarray): Input float array.
        beta (float): Parameter `beta`.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    y, = Softplus(beta=beta).apply((x,))
    return y
