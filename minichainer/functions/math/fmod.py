"""`fmod`: elementwise C-style remainder (sign of the dividend)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import fix
from minichainer.utils import type_check


class Fmod(function_node.FunctionNode):
    """Elementwise `fmod(x, divisor)`."""

    @property
    def label(self):
        return 'fmod'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'divisor'))
        type_check.expect(
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].dtype.kind == 'f',
            in_types[1].dtype.kind == 'f',
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, divisor = inputs
        xp = backend.get_array_module(x, divisor)
        return utils.force_array(xp.fmod(x, divisor), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, divisor = self.get_retained_inputs()
        gw, = grad_outputs
        if not _fast.needs_graph():
            xp = backend.get_array_module(x.array)
            gd = xp.fix(x.array / divisor.array)
            gd *= gw.array
            return gw, _fast.as_grad(utils.force_array(-gd, x.dtype))
        return gw, -fix.fix(x / divisor) * gw


def fmod(x, divisor):
    """Elementwise mod function `y = fmod(x, divisor)`.

    Args:
        x (Variable or ndarray): Input variable.
        divisor (Variable or ndarray): Input divisor (same dtype).

    Returns:
        Variable: Output variable.
    """
    return Fmod().apply((x, divisor))[0]
