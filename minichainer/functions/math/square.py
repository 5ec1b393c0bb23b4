"""Elementwise square."""
from minichainer import utils
from minichainer.function_node import FunctionNode
from minichainer.utils import type_check


class Square(FunctionNode):

    @property
    def label(self):
        return 'square'

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(x * x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        return gy * 2.0 * x,


def square(x):
    """Elementwise square `x ** 2`."""
    return Square().apply((x,))[0]
