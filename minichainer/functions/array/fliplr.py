"""Left/right flipping (`chainer.functions.fliplr`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class FlipLR(function_node.FunctionNode):
    """Reverse an array along axis 1."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type = in_types[0]
        type_check.expect(a_type.dtype.kind == 'f', a_type.ndim >= 2)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.fliplr(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return FlipLR().apply(grad_outputs)


def fliplr(a):
    """Reverse `a` along axis 1 (left/right).

    Args:
        a (Variable or numpy.ndarray): Floating-point input, ndim >= 2.

    Returns:
        Variable: The flipped variable.
    """
    return FlipLR().apply((a,))[0]
