"""``ndtri``: elementwise inverse of the standard normal CDF.

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

_SQRT_2PI = math.sqrt(2.0 * math.pi)


class Ndtri(function_node.FunctionNode):
    """Elementwise inverse of the standard normal CDF."""

    @property
    def label(self):
        return 'ndtri'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(_special.ndtri(x), x.dtype),

    def backward(self, indexes, grad_outputs):
        from minichainer.functions.math import exponential
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            xp = backend.get_array_module(gy.array)
            ya = y.array
            gx = xp.exp(ya * ya * 0.5) * _SQRT_2PI
            gx = gx * gy.array
            return _fast.as_grad(utils.force_array(gx, gy.dtype)),
        return _SQRT_2PI * exponential.exp(y * y * 0.5) * gy,


def ndtri(x):
    """Elementwise inverse of the standard normal CDF.

    Args:
        x (~chainer.Variable or ndarray): Input variable (float).

    Returns:
        ~chainer.Variable: Output variable.
    """
    return Ndtri().apply((x,))[0]
