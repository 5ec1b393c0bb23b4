"""Padding a list of sequences into one array (`chainer.functions.pad_sequence`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.get_item import get_item
from minichainer.functions.array.separate import separate
from minichainer.utils import type_check


class PadSequence(function_node.FunctionNode):
    """Stack arrays of different lengths into one, padding them to a common length."""

    def __init__(self, length, padding):
        self.length = length
        self.padding = padding

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() > 0)
        for i, in_type in enumerate(in_types):
            type_check.argname((in_type,), ('x{}'.format(i),))
            type_check.expect(in_type.ndim > 0,
                              in_type.shape[1:] == in_types[0].shape[1:],
                              in_type.dtype == in_types[0].dtype)
        if self.length is not None:
            for in_type in in_types:
                type_check.expect(in_type.shape[0] <= self.length)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        length = max(len(x) for x in xs) if self.length is None else self.length
        y = xp.empty((len(xs), length) + xs[0].shape[1:], xs[0].dtype)
        if length == 0:
            return y,
        # Cast the padding as C does (and as NumPy 1 did on assignment): -1 pads uint8
        # with 255 on every NumPy version, as in Chainer.
        padding = xp.asarray(self.padding).astype(y.dtype)
        for i, x in enumerate(xs):
            n = len(x)
            y[i, :n] = x
            if n < length:
                y[i, n:] = padding
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        rows = separate(gy, 0)
        return tuple(get_item(rows[i], slice(0, self.inputs[i].shape[0]))
                     for i in indexes)


def pad_sequence(xs, length=None, padding=0):
    """Stack variables of shape `(L_i, ...)` into one of shape `(len(xs), L, ...)`.

    Args:
        xs (sequence of Variable or numpy.ndarray): Arrays whose shapes
            agree except along the first axis.
        length (int or None): Output length `L`; None uses the longest input.
        padding (scalar): Value of the padded elements.

    Returns:
        Variable: The padded variable.
    """
    return PadSequence(length, padding).apply(xs)[0]
