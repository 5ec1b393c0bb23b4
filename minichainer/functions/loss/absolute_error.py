"""Elementwise absolute error."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.util import checks


class AbsoluteError(function_node.FunctionNode):
    """FunctionNode of
    [`absolute_error`][minichainer.functions.loss.absolute_error.absolute_error]."""

    def check_type_forward(self, in_types):
        checks.expect_same_float_pair(in_types, ('x0', 'x1'))

    def forward(self, inputs):
        x0, x1 = inputs
        self.diff = x0 - x1
        xp = backend.get_array_module(x0)
        return utils.force_array(xp.abs(self.diff), dtype=x0.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xp = backend.get_array_module(self.diff)
        gx = gy * xp.sign(self.diff)
        return gx, -gx


def absolute_error(x0, x1):
    """Elementwise `|x0 - x1|`."""
    return AbsoluteError().apply((x0, x1))[0]
