"""Reversing an array along an axis (`chainer.functions.flip`), and `FixedAxisFlip`, the
base of `FlipLR` (`fliplr.py`) and `FlipUD` (`flipud.py`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


def _flip(array, axis):
    """Reverse `array` along `axis` with a slice (a view, like `numpy.flip`).

    Module-level helper kept for code written against Chainer, which exposes it.
    """
    indexer = [slice(None)] * array.ndim
    indexer[axis] = slice(None, None, -1)
    return array[tuple(indexer)]


class Flip(function_node.FunctionNode):
    """Reverse the order of elements along an axis."""

    def __init__(self, axis):
        if not isinstance(axis, int):
            raise TypeError('axis must be int, got {}'.format(type(axis).__name__))
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.ndim > 0)
        if self.axis >= 0:
            type_check.expect(x_type.ndim > self.axis)
        else:
            type_check.expect(x_type.ndim >= -self.axis)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.flip(inputs[0], self.axis),

    def backward(self, indexes, grad_outputs):
        return Flip(self.axis).apply(grad_outputs)


class FixedAxisFlip(function_node.FunctionNode):
    """Reverse a floating-point array along the fixed `axis` of a subclass (its own
    gradient), with Chainer's checks of `fliplr`/`flipud`: the input named `a`, a float
    dtype, more than `axis` dimensions."""

    axis = None

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a',))
        a_type = in_types[0]
        type_check.expect(a_type.dtype.kind == 'f', a_type.ndim >= self.axis + 1)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        return xp.flip(inputs[0], self.axis),

    def backward(self, indexes, grad_outputs):
        return type(self)().apply(grad_outputs)


def flip(x, axis):
    """Reverse the order of the elements of `x` along `axis`.

    Args:
        x (Variable or numpy.ndarray): Input variable (ndim >= 1).
        axis (int): The axis to reverse.

    Returns:
        Variable: The flipped variable.
    """
    return Flip(axis).apply((x,))[0]
