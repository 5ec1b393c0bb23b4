"""``expm1``: elementwise ``exp(x) - 1``, accurate near zero."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.utils import type_check


class Expm1(function_node.FunctionNode):
    """Elementwise ``exp(x) - 1``."""

    @property
    def label(self):
        return 'expm1'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.expm1(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx = y.array + 1
            gx *= gy.array
            return _fast.as_grad(gx),
        return (y + 1.0) * gy,


def expm1(x):
    """Elementwise exponential minus one function."""
    return Expm1().apply((x,))[0]
