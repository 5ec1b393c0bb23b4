"""``minimum``: elementwise minimum of two variables (broadcasting)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.math.maximum import _check_float_pair
from minichainer.functions.math.maximum import _SelectGrad


class Minimum(function_node.FunctionNode):
    """Element-wise minimum of input variables."""

    def check_type_forward(self, in_types):
        _check_float_pair(in_types)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x1, x2 = inputs
        xp = backend.get_array_module(x1, x2)
        return utils.force_array(xp.minimum(x1, x2)),

    def backward(self, indexes, grad_outputs):
        x1, x2 = self.get_retained_inputs()
        # Ties send the gradient to x1, as Chainer.
        return _SelectGrad(x1.array <= x2.array, x1.shape, x2.shape).run(grad_outputs)


def minimum(x1, x2):
    """Element-wise minimum of input variables (see :func:`maximum`)."""
    return Minimum().apply((x1, x2))[0]
