"""`polygamma`: n-th derivative of the digamma function (needs SciPy)."""
from minichainer import function_node
from minichainer import utils
from minichainer.functions.math._scipy import special_for
from minichainer.utils import type_check


class PolyGamma(function_node.FunctionNode):
    """Elementwise polygamma function of integer order `n`."""

    @property
    def label(self):
        return 'polygamma'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('n', 'x'))
        n_type, x_type = in_types
        type_check.expect(
            n_type.dtype.kind == 'i',
            x_type.dtype.kind == 'f',
        )

    def forward(self, inputs):
        n, x = inputs
        special = special_for(x, 'polygamma')
        self.retain_inputs((0, 1))
        return utils.force_array(special.polygamma(n, x), dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        n, x = self.get_retained_inputs()
        return None, polygamma(utils.force_array(n.array + 1), x) * grad_outputs[0]


def polygamma(n, x):
    """Elementwise polygamma function `psi^(n)(x)`.

    Args:
        n (Variable or ndarray): Integer orders (not differentiated).
        x (Variable or ndarray): Input variable.

    Raises:
        ImportError: SciPy is not installed (as Chainer on the CPU).
    """
    return PolyGamma().apply((n, x))[0]
