"""``ndtr``: elementwise standard normal CDF ``ndtr(x)``.

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

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)
_SQRT_2PI = math.sqrt(2.0 * math.pi)


class Ndtr(function_node.FunctionNode):
    """Elementwise standard normal CDF ``ndtr(x)``."""

    @property
    def label(self):
        return 'ndtr'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(_special.ndtr(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        from minichainer.functions.math import exponential
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            xp = backend.get_array_module(gy.array)
            xa = x.array
            gx = xp.exp(xa * xa * -0.5) * _INV_SQRT_2PI
            gx = gx * gy.array
            return _fast.as_grad(utils.force_array(gx, gy.dtype)),
        return _INV_SQRT_2PI * exponential.exp(x * x * -0.5) * gy,


def ndtr(x):
    """Elementwise standard normal CDF ``ndtr(x)``.

    Args:
        x (~chainer.Variable or ndarray): Input variable (float).

    Returns:
        ~chainer.Variable: Output variable.
    """
    return Ndtr().apply((x,))[0]
