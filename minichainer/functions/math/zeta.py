"""`zeta`: Hurwitz zeta function (needs SciPy)."""
from minichainer import function_node
from minichainer import utils
from minichainer import variable
from minichainer.functions.math._scipy import special_for
from minichainer.utils import type_check


class Zeta(function_node.FunctionNode):
    """Elementwise Hurwitz zeta `sum_k (k + q) ** -x` for a constant `x`."""

    def __init__(self, x):
        self._x = x

    @property
    def label(self):
        return 'zeta'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('q',))
        q_type, = in_types
        type_check.expect(q_type.dtype.kind == 'f')

    def forward(self, inputs):
        q, = inputs
        special = special_for(q, 'zeta')
        self.retain_inputs((0,))
        return utils.force_array(special.zeta(self._x, q), dtype=q.dtype),

    def backward(self, indexes, grad_outputs):
        q, = self.get_retained_inputs()
        # d/dq zeta(x, q) = -x zeta(x + 1, q)
        return grad_outputs[0] * -self._x * zeta(self._x + 1, q),


def zeta(x, q):
    """Elementwise Hurwitz zeta function, differentiable with respect to `q` only.

    Args:
        x (Variable or ndarray): Exponents (a constant: not differentiated).
        q (Variable or ndarray): Input variable.

    Raises:
        ImportError: SciPy is not installed (as Chainer on the CPU).
    """
    if isinstance(x, variable.Variable):
        x = x.array
    return Zeta(x).apply((q,))[0]
