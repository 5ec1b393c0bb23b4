"""Padding an array (`chainer.functions.pad`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.get_item import get_item
from minichainer.functions.math import _elementwise


def _pad_widths(pad_width, ndim):
    """`pad_width` as an `(ndim, 2)` int array, broadcast as `numpy.pad` does."""
    bw = numpy.asarray(pad_width, dtype=numpy.int64)
    if bw.size == 1:
        bw = bw.reshape(())
    return numpy.broadcast_to(bw, (ndim, 2))


class Pad(function_node.FunctionNode):
    """Pad an array, as `numpy.pad`."""

    def __init__(self, pad_width, mode, **keywords):
        self.mode = mode
        self.keywords = keywords
        self.pad_width = pad_width
        self.pad_bw = numpy.asarray(pad_width)
        if self.pad_bw.size == 1:
            self.pad_bw = numpy.repeat(self.pad_bw, 2)

    def check_type_forward(self, in_types):
        _elementwise.check_float_x(in_types)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.pad(x, self.pad_width, mode=self.mode, **self.keywords),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        in_shape = self.inputs[0].shape
        # As Chainer, for every mode: the gradient of the input's own (cropped) part.
        widths = _pad_widths(self.pad_width, len(in_shape))
        slices = tuple(slice(int(b), int(b) + n) for n, (b, _) in zip(in_shape, widths))
        return get_item(gy, slices),


def pad(x, pad_width, mode, **keywords):
    """Pad `x`, as `numpy.pad(x, pad_width, mode, **keywords)`.

    The gradient is the output gradient cropped to the input's region, for every
    mode, as in Chainer. For the modes whose padded values depend on the input
    (`edge`, `reflect`, `mean` ...) this ignores that dependence, exactly like
    Chainer 7 (kept for compatibility); it is the exact gradient for `constant`.

    Args:
        x (Variable or numpy.ndarray): Input variable (floating point).
        pad_width (int or sequence): Widths as for `numpy.pad`.
        mode (str): Padding mode as for `numpy.pad`.
        **keywords: Further `numpy.pad` options (e.g. `constant_values`).

    Returns:
        Variable: The padded variable.
    """
    return Pad(pad_width, mode, **keywords).apply((x,))[0]
