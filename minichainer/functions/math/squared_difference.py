"""`squared_difference`: elementwise `(x1 - x2) ** 2`."""
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.utils import type_check


class SquaredDifference(function_node.FunctionNode):
    """Squared difference of input variables."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x1', 'x2'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].shape == in_types[1].shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        d = x1 - x2
        d *= d
        return utils.force_array(d, x1.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        x1, x2 = self.get_retained_inputs()
        if not _fast.needs_graph():
            g = x1.array - x2.array
            g *= gy.array
            g *= x1.dtype.type(2)  # not ``*= 2``: 0-d operands make g a NumPy scalar
            return _fast.as_grad(g), _fast.as_grad(-g)
        gx = gy * 2 * (x1 - x2)
        return gx, -gx


def squared_difference(x1, x2):
    """Squared difference `(x1 - x2) ** 2` of two same-shaped variables."""
    return SquaredDifference().apply((x1, x2))[0]
