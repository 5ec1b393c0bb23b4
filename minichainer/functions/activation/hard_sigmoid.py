"""Hard sigmoid (`chainer.functions.hard_sigmoid`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.math import _elementwise
from minichainer.utils import type_check


class HardSigmoid(_elementwise.FloatInput):
    """Hard sigmoid: `clip(0.2 * x + 0.5, 0, 1)`."""

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        y = utils.force_array(x * 0.2, x.dtype)
        y += 0.5
        xp.clip(y, 0.0, 1.0, out=y)       # Chainer's clip(x * 0.2 + 0.5, 0, 1), in place
        self.retain_inputs((0,))
        return y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return HardSigmoidGrad(x.array).apply(grad_outputs)


class HardSigmoidGrad(function_node.FunctionNode):
    """Gradient of hard sigmoid: `0.2 * gy` on `-2.5 < x < 2.5`, 0 elsewhere."""

    def __init__(self, x):
        self.x = x

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('gy',))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == self.x.dtype,
        )

    def forward(self, inputs):
        gy, = inputs
        x = self.x
        # Chainer's ((-2.5 < x) & (x < 2.5)) * gy * 0.2 with one-byte masks and the
        # last product in place
        inside = -2.5 < x
        inside &= x < 2.5
        gx = utils.force_array(inside * gy, x.dtype)
        gx *= 0.2
        return gx,

    def backward(self, indexes, grad_outputs):
        return HardSigmoidGrad(self.x).apply(grad_outputs)


def hard_sigmoid(x):
    """Element-wise hard sigmoid: 0 for `x < -2.5`, 1 for `x > 2.5`, `0.2x + 0.5` between.

    Args:
        x (Variable or ndarray): Input float array.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    return HardSigmoid().apply((x,))[0]
