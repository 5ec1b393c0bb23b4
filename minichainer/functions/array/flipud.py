"""Up/down flipping (`chainer.functions.flipud`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class FlipUD(function_node.FunctionNode):
    """Reverse an array along axis 0."""

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('a',))
        a_type = in_types[0]
        type_check.expect(a_type.dtype.kind == 'f', a_type.ndim >= 1)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.flipud(inputs[0]),

    def backward(self, indexes, grad_outputs):
        return FlipUD().apply(grad_outputs)


def flipud(a):
    """Reverse `a` along axis 0 (up/down).

    Args:
        a (Variable or numpy.ndarray): Floating-point input, ndim >= 1.

    Returns:
        Variable: The flipped variable.
    """
    return FlipUD().apply((a,))[0]
