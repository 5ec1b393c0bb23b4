"""`digamma`: derivative of `lgamma` (needs SciPy)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.math import _elementwise
from minichainer.functions.math import polygamma
from minichainer.functions.math._scipy import special_for


class DiGamma(function_node.FunctionNode):
    """Elementwise digamma function."""

    @property
    def label(self):
        return 'digamma'

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)

    def forward(self, inputs):
        x, = inputs
        special = special_for(x, 'digamma')
        self.retain_inputs((0,))
        return utils.force_array(special.digamma(x), dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xp = backend.get_array_module(x)
        return polygamma.polygamma(xp.asarray(1, numpy.int32), x) * grad_outputs[0],


def digamma(x):
    """Elementwise digamma function `d/dx log Gamma(x)`.

    Raises:
        ImportError: SciPy is not installed (as Chainer on the CPU).
    """
    return DiGamma().apply((x,))[0]
