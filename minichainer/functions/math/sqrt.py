"""``sqrt`` and ``rsqrt``."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.utils import type_check


class Sqrt(function_node.FunctionNode):
    """Elementwise square root."""

    @property
    def label(self):
        return 'sqrt'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.sqrt(x, dtype=x.dtype)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fast.as_grad(gy.array / (y.array * 2)),
        return gy / (y * 2.0),


def sqrt(x):
    """Elementwise square root ``y = sqrt(x)`` (NaN for negative inputs, as NumPy)."""
    return Sqrt().apply((x,))[0]


def rsqrt(x):
    """Elementwise reciprocal square root ``y = 1 / sqrt(x)``."""
    return 1.0 / sqrt(x)
