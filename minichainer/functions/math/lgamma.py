"""`lgamma`: log of the absolute value of the gamma function (needs SciPy)."""
from minichainer import function_node
from minichainer import utils
from minichainer.functions.math import _elementwise
from minichainer.functions.math import digamma
from minichainer.functions.math._scipy import special_for


class LGamma(function_node.FunctionNode):
    """Elementwise `log |Gamma(x)|`."""

    @property
    def label(self):
        return 'lgamma'

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)

    def forward(self, inputs):
        x, = inputs
        special = special_for(x, 'lgamma')
        self.retain_inputs((0,))
        return utils.force_array(special.gammaln(x), dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return digamma.digamma(x) * grad_outputs[0],


def lgamma(x):
    """Elementwise log-gamma function `log |Gamma(x)|`.

    Raises:
        ImportError: SciPy is not installed (as Chainer on the CPU).
    """
    return LGamma().apply((x,))[0]
