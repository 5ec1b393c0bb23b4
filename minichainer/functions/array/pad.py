"""Padding an array (``chainer.functions.pad``)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.get_item import get_item
from minichainer.utils import type_check

# Modes where every output element is a copy of one input element; their gradient is
# the exact adjoint (scatter-add of the output gradient onto the source elements).
_INDEX_MODES = ('edge', 'reflect', 'symmetric', 'wrap')


def _pad_widths(pad_width, ndim):
    """``pad_width`` as an ``(ndim, 2)`` int array, broadcast as ``numpy.pad`` does."""
    bw = numpy.asarray(pad_width, dtype=numpy.int64)
    if bw.size == 1:
        bw = bw.reshape(())
    return numpy.broadcast_to(bw, (ndim, 2))


class Pad(function_node.FunctionNode):
    """Pad an array, as ``numpy.pad``."""

    def __init__(self, pad_width, mode, **keywords):
        self.mode = mode
        self.keywords = keywords
        self.pad_width = pad_width
        self.pad_bw = numpy.asarray(pad_width)
        if self.pad_bw.size == 1:
            self.pad_bw = numpy.repeat(self.pad_bw, 2)

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.pad(x, self.pad_width, mode=self.mode, **self.keywords),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        in_shape = self.inputs[0].shape
        if self.mode in _INDEX_MODES:
            return PadGrad(in_shape, self.pad_width, self.mode).apply((gy,))
        widths = _pad_widths(self.pad_width, len(in_shape))
        slices = tuple(slice(int(b), int(b) + n) for n, (b, _) in zip(in_shape, widths))
        return get_item(gy, slices),


class PadGrad(function_node.FunctionNode):
    """Adjoint of :class:`Pad` for the copying modes (``edge``, ``reflect``, ...)."""

    def __init__(self, in_shape, pad_width, mode):
        self.in_shape = in_shape
        self.pad_width = pad_width
        self.mode = mode

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        widths = _pad_widths(self.pad_width, len(self.in_shape))
        gx = gy
        for axis, (n, (b, a)) in enumerate(zip(self.in_shape, widths)):
            if b == 0 and a == 0:
                continue
            # Source index (along this axis) of every padded position.
            src = numpy.pad(numpy.arange(n), (int(b), int(a)), mode=self.mode)
            moved = xp.moveaxis(gx, axis, 0)
            out = xp.zeros((n,) + moved.shape[1:], dtype=gy.dtype)
            xp.add.at(out, src, moved)
            gx = xp.moveaxis(out, 0, axis)
        return xp.ascontiguousarray(gx),

    def backward(self, indexes, grad_outputs):
        return Pad(self.pad_width, self.mode).apply(grad_outputs)


def pad(x, pad_width, mode, **keywords):
    """Pad ``x``, as ``numpy.pad(x, pad_width, mode, **keywords)``.

    The gradient of ``constant`` mode crops the output gradient, and so does that of
    the statistic modes (``mean``, ``maximum``, ``linear_ramp`` ...), as in Chainer,
    which ignores the padded values' dependence on the input. Deliberate difference:
    for ``edge``, ``reflect``, ``symmetric`` and ``wrap`` the gradient is exact (the
    padded copies' gradients are added to their source elements), where Chainer
    crops.

    Args:
        x (~minichainer.Variable or numpy.ndarray): Input variable (floating point).
        pad_width (int or sequence): Widths as for ``numpy.pad``.
        mode (str): Padding mode as for ``numpy.pad``.
        **keywords: Further ``numpy.pad`` options (e.g. ``constant_values``).

    Returns:
        ~minichainer.Variable: The padded variable.
    """
    return Pad(pad_width, mode, **keywords).apply((x,))[0]
