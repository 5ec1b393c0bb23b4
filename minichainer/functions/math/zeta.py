"""``zeta``: Hurwitz zeta function (needs SciPy)."""
from minichainer import function_node
from minichainer import utils
from minichainer.functions.math._scipy import _scipy_special
from minichainer.utils import type_check


class Zeta(function_node.FunctionNode):
    """Elementwise Hurwitz zeta ``sum_k (k + q) ** -x``."""

    @property
    def label(self):
        return 'zeta'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 'q'))
        x_type, q_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            q_type.dtype.kind == 'f',
        )

    def forward(self, inputs):
        x, q = inputs
        special = _scipy_special('zeta')
        self.retain_inputs((0, 1))
        return utils.force_array(special.zeta(x, q), dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        x, q = self.get_retained_inputs()
        # d/dq zeta(x, q) = -x zeta(x + 1, q).  There is no closed form for the
        # derivative in x: it is not propagated (Chainer returns the q-gradient
        # for x too, which is wrong).
        return None, grad_outputs[0] * -x * zeta(x + 1, q)


def zeta(x, q):
    """Elementwise Hurwitz zeta function; differentiable in ``q`` only.

    Raises:
        ImportError: SciPy is not installed (as Chainer on the CPU).
    """
    return Zeta().apply((x, q))[0]
