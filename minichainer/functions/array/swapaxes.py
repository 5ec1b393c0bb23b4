"""Swapping two axes (`chainer.functions.swapaxes`)."""
from minichainer import function_node
from minichainer.utils import type_check


class Swapaxes(function_node.FunctionNode):
    """Swap two axes of an array."""

    def __init__(self, axis1, axis2):
        self.axis1 = axis1
        self.axis2 = axis2

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    @property
    def label(self):
        return 'Swapaxes'

    def forward(self, inputs):
        x, = inputs
        return x.swapaxes(self.axis1, self.axis2),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return Swapaxes(self.axis1, self.axis2).apply((gy,))


def swapaxes(x, axis1, axis2):
    """Swap the axes `axis1` and `axis2` of `x` (a view, like `numpy.swapaxes`).

    Args:
        x (Variable or numpy.ndarray): Input variable.
        axis1 (int): The first axis.
        axis2 (int): The second axis.

    Returns:
        Variable: Variable whose axes are swapped.
    """
    y, = Swapaxes(axis1, axis2).apply((x,))
    return y
