"""``log1p``: elementwise ``log(1 + x)``, accurate near zero."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.utils import type_check


class Log1p(function_node.FunctionNode):
    """Elementwise ``log(1 + x)``."""

    @property
    def label(self):
        return 'log1p'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.log1p(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fast.as_grad(gy.array / (x.array + 1)),
        return gy / (x + 1.0),


def log1p(x):
    """Elementwise natural logarithm plus one function."""
    return Log1p().apply((x,))[0]
