"""`erfcx`: elementwise scaled complementary error function `exp(x^2) erfc(x)`.

Uses SciPy when it is installed, else a NumPy fallback (minichainer does not
require SciPy; Chainer needs it for some of these on the CPU).
"""
import math

from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise
from minichainer.functions.math import _special

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erfcx(function_node.FunctionNode):
    """Elementwise scaled complementary error function `exp(x^2) erfc(x)`."""

    @property
    def label(self):
        return 'erfcx'

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(_special.erfcx(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx = 2 * x.array * y.array - _TWO_OVER_SQRT_PI
            gx = gx * gy.array
            return _fast.as_grad(utils.force_array(gx, gy.dtype)),
        return (2 * x * y - _TWO_OVER_SQRT_PI) * gy,


def erfcx(x):
    """Elementwise scaled complementary error function `exp(x^2) erfc(x)`.

    Args:
        x (Variable or ndarray): Input variable (float).

    Returns:
        Variable: Output variable.
    """
    return Erfcx().apply((x,))[0]
