"""Elementwise squared error."""
from minichainer import function_node
from minichainer import utils
from minichainer.functions.util import checks


class SquaredError(function_node.FunctionNode):
    """FunctionNode of [`squared_error`][minichainer.functions.loss.squared_error.squared_error]."""

    def check_type_forward(self, in_types):
        checks.expect_same_float_pair(in_types, ('x0', 'x1'))

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        diff = x0 - x1
        return utils.force_array(diff * diff, dtype=x0.dtype),

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        gx = gy * 2 * (x0 - x1)
        return gx, -gx


def squared_error(x0, x1):
    """Elementwise `(x0 - x1) ** 2`."""
    return SquaredError().apply((x0, x1))[0]
