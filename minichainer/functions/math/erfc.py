"""``erfc``: elementwise complementary error function ``1 - erf(x)``.

Uses SciPy when it is installed, else a NumPy fallback (minichainer does not
require SciPy; Chainer needs it for some of these on the CPU).
"""
import math

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _special
from minichainer.utils import type_check

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erfc(function_node.FunctionNode):
    """Elementwise complementary error function ``1 - erf(x)``."""

    @property
    def label(self):
        return 'erfc'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(_special.erfc(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        from minichainer.functions.math import exponential
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            xp = backend.get_array_module(gy.array)
            xa = x.array
            gx = xp.exp(-(xa * xa)) * -_TWO_OVER_SQRT_PI
            gx = gx * gy.array
            return _fast.as_grad(utils.force_array(gx, gy.dtype)),
        return -_TWO_OVER_SQRT_PI * exponential.exp(-(x * x)) * gy,


def erfc(x):
    """Elementwise complementary error function ``1 - erf(x)``.

    Args:
        x (~chainer.Variable or ndarray): Input variable (float).

    Returns:
        ~chainer.Variable: Output variable.
    """
    return Erfc().apply((x,))[0]
