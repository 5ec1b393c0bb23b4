"""`digamma`: derivative of `lgamma` (needs SciPy)."""
import numpy

from minichainer import function_node
from minichainer import utils
from minichainer.functions.math import _elementwise
from minichainer.functions.math import polygamma
from minichainer.functions.math._scipy import _scipy_special


class DiGamma(function_node.FunctionNode):
    """Elementwise digamma function."""

    @property
    def label(self):
        return 'digamma'

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)

    def forward(self, inputs):
        x, = inputs
        special = _scipy_special('digamma')
        self.retain_inputs((0,))
        return utils.force_array(special.digamma(x), dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return polygamma.polygamma(numpy.array(1, numpy.int32), x) * grad_outputs[0],


def digamma(x):
    """Elementwise digamma function `d/dx log Gamma(x)`.

    Raises:
        ImportError: SciPy is not installed (as Chainer on the CPU).
    """
    return DiGamma().apply((x,))[0]
