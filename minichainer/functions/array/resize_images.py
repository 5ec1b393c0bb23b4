"""Resizing images by interpolation (`chainer.functions.resize_images`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


def compute_indices_and_weights(out_size, in_size, mode, align_corners, xp):
    """Source rows/columns and fractional weights of every output row/column.

    Returns `(v, u, vw, uw)` (float64): output row `i` reads input rows `v[i]` and
    `v[i] + 1` with weights `1 - vw[i]` and `vw[i]` (columns likewise).
    """
    out_H, out_W = out_size
    H, W = in_size
    if mode == 'bilinear':
        if align_corners:
            v = xp.linspace(0, H - 1, num=out_H, dtype=numpy.float64)
            u = xp.linspace(0, W - 1, num=out_W, dtype=numpy.float64)
        else:
            v = (xp.arange(out_H, dtype=numpy.float64) + 0.5) * (H / out_H) - 0.5
            v = xp.maximum(v, 0)
            u = (xp.arange(out_W, dtype=numpy.float64) + 0.5) * (W / out_W) - 0.5
            u = xp.maximum(u, 0)
        vw, v = xp.modf(v)
        uw, u = xp.modf(u)
    else:  # nearest
        v = xp.minimum(xp.floor(xp.arange(out_H, dtype=numpy.float64) * (H / out_H)),
                       H - 1)
        u = xp.minimum(xp.floor(xp.arange(out_W, dtype=numpy.float64) * (W / out_W)),
                       W - 1)
        vw = xp.zeros_like(v)
        uw = xp.zeros_like(u)
    return v, u, vw, uw


class _AxisInterp:
    """Linear interpolation along one axis: `out[i] = a0[i] * in[i0[i]] + a1[i] * in[i1[i]]`.

    Bilinear resizing is separable, so it is two of these (rows, then columns); each is
    a gather in the forward pass and a segmented sum (`add.reduceat` over the sorted
    source indices) in the backward pass.
    """

    def __init__(self, idx, weight, in_size, dtype):
        self.i0 = idx.astype(numpy.intp)
        self.i1 = numpy.minimum(self.i0 + 1, in_size - 1)
        # Chainer rounds the weights to the data dtype before interpolating.
        w = weight.astype(dtype)
        self.a1 = w
        self.a0 = (1 - w).astype(dtype)
        self.in_size = in_size
        self.linear = bool((w != 0).any())

    def apply(self, x, axis):
        """Interpolate `x` along `axis` (a negative axis)."""
        xp = backend.get_array_module(x)
        shape = (-1,) + (1,) * (-axis - 1)
        y = xp.take(x, self.i0, axis=axis) * self.a0.reshape(shape)
        if self.linear:
            y += xp.take(x, self.i1, axis=axis) * self.a1.reshape(shape)
        return y

    def transpose(self, g, axis):
        """Adjoint of `apply`: scatter-add `g` back onto the source positions."""
        xp = backend.get_array_module(g)
        shape = (-1,) + (1,) * (-axis - 1)
        out_shape = list(g.shape)
        out_shape[axis] = self.in_size
        out = xp.zeros(out_shape, dtype=g.dtype)
        terms = [(self.i0, self.a0)]
        if self.linear:
            terms.append((self.i1, self.a1))
        lead = (slice(None),) * (g.ndim + axis)
        for idx, a in terms:
            weighted = g * a.reshape(shape)
            # one slice add per output position, in order (a segmented add.reduceat
            # over runs of one or two positions costs ~40 ns per run: 3-5x slower)
            for j, i in enumerate(idx.tolist()):
                out[lead + (i,)] += weighted[lead + (j,)]
        return out


def _interpolators(out_size, in_size, mode, align_corners, dtype, xp):
    v, u, vw, uw = compute_indices_and_weights(out_size, in_size, mode, align_corners, xp)
    return (_AxisInterp(v, vw, in_size[0], dtype),
            _AxisInterp(u, uw, in_size[1], dtype))


def _check_float32_images(in_types, name):
    type_check._argname(in_types, (name,))
    x_type = in_types[0]
    type_check.expect(x_type.dtype == numpy.float32, x_type.ndim == 4)


def _node_interpolators(node, in_size, x):
    """`_interpolators` from `node`'s output size, mode and alignment for array `x`."""
    xp = backend.get_array_module(x)
    return _interpolators((node.out_H, node.out_W), in_size, node.mode,
                          node.align_corners, x.dtype, xp)


class ResizeImages(function_node.FunctionNode):
    """Resize `(N, C, H, W)` images by bilinear or nearest-neighbour interpolation.

    Bilinear interpolation is separable: columns are interpolated first, then rows.
    """

    def __init__(self, output_shape, mode, align_corners):
        self.out_H = output_shape[0]
        self.out_W = output_shape[1]
        if mode not in ('bilinear', 'nearest'):
            raise ValueError("resize_images: mode must be 'bilinear' or 'nearest', got "
                             '{!r}'.format(mode))
        self.mode = mode
        self.align_corners = align_corners

    def check_type_forward(self, in_types):
        _check_float32_images(in_types, 'x')

    def forward(self, inputs):
        x, = inputs
        rows, cols = _node_interpolators(self, x.shape[2:], x)
        return rows.apply(cols.apply(x, -1), -2),

    def backward(self, indexes, grad_outputs):
        return ResizeImagesGrad(self.inputs[0].shape, (self.out_H, self.out_W), self.mode,
                                self.align_corners).apply(grad_outputs)


class ResizeImagesGrad(function_node.FunctionNode):
    """Gradient of `ResizeImages` (the transposed interpolation)."""

    def __init__(self, input_shape, output_shape, mode, align_corners):
        self.out_H = output_shape[0]
        self.out_W = output_shape[1]
        self.input_shape = input_shape
        self.mode = mode
        self.align_corners = align_corners

    def check_type_forward(self, in_types):
        _check_float32_images(in_types, 'gy')

    def forward(self, inputs):
        gy, = inputs
        rows, cols = _node_interpolators(self, self.input_shape[2:], gy)
        return cols.transpose(rows.transpose(gy, -2), -1),

    def backward(self, indexes, grad_outputs):
        return ResizeImages((self.out_H, self.out_W), self.mode,
                            self.align_corners).apply(grad_outputs)


def resize_images(x, output_shape, *, mode='bilinear', align_corners=True):
    """Resize `(N, C, H, W)` float32 images to `output_shape = (out_H, out_W)`.

    Args:
        x (Variable or numpy.ndarray): float32 input `(N, C, H, W)`.
        output_shape (tuple of int): `(out_H, out_W)`.
        mode (str): `'bilinear'` or `'nearest'`.
        align_corners (bool): In bilinear mode, map the corner pixels of input and
            output onto each other (Chainer's default); otherwise pixel centres are
            scaled (as OpenCV/PIL).

    Raises:
        ValueError: for an unknown `mode` (Chainer asserts).

    Returns:
        Variable: The resized images `(N, C, out_H, out_W)`.
    """
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
