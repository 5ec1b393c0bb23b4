"""`log_ndtr`: elementwise log of the standard normal CDF, accurate in the tails.

Uses SciPy when it is installed, else a NumPy fallback (minichainer does not
require SciPy; Chainer needs it for some of these on the CPU).
"""
import math

from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise
from minichainer.functions.math import _special
from minichainer.functions.math import erfcx

_SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)
_INV_SQRT2 = 1.0 / math.sqrt(2.0)


class LogNdtr(function_node.FunctionNode):
    """Elementwise log of the standard normal CDF, accurate in the tails."""

    @property
    def label(self):
        return 'log_ndtr'

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(_special.log_ndtr(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            xa = x.array
            gx = _SQRT_2_OVER_PI / _special.erfcx(xa * -_INV_SQRT2)
            gx = gx * gy.array
            return _fast.as_grad(utils.force_array(gx, gy.dtype)),
        return _SQRT_2_OVER_PI / erfcx.erfcx(x * -_INV_SQRT2) * gy,


def log_ndtr(x):
    """Elementwise log of the standard normal CDF, accurate in the tails.

    Args:
        x (Variable or ndarray): Input variable (float).

    Returns:
        Variable: Output variable.
    """
    return LogNdtr().apply((x,))[0]
