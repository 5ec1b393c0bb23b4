"""``erfcinv``: elementwise inverse of the complementary error function.

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

_SQRT_PI_OVER_TWO = math.sqrt(math.pi) / 2.0


class ErfcInv(function_node.FunctionNode):
    """Elementwise inverse of the complementary error function."""

    @property
    def label(self):
        return 'erfcinv'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(_special.erfcinv(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        from minichainer.functions.math import exponential
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            xp = backend.get_array_module(gy.array)
            ya = y.array
            gx = xp.exp(ya * ya) * -_SQRT_PI_OVER_TWO
            gx = gx * gy.array
            return _fast.as_grad(utils.force_array(gx, gy.dtype)),
        return -_SQRT_PI_OVER_TWO * exponential.exp(y * y) * gy,


def erfcinv(x):
    """Elementwise inverse of the complementary error function.

    Args:
        x (~chainer.Variable or ndarray): Input variable (float).

    Returns:
        ~chainer.Variable: Output variable.
    """
    return ErfcInv().apply((x,))[0]
