"""Resizing images by interpolation (`chainer.functions.resize_images`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import scatter
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

    Bilinear resizing is separable, so it is two of these (rows, then columns). Each is
    a product with the (out, in) interpolation matrix holding those two weights per
    row: one matrix product along the last axis (`apply_last`), a batch of them along
    the rows axis (`apply_rows`), and the transposed matrix for the gradient. Inputs
    with an inf or NaN take the gather (forward) or per-position adds (gradient)
    instead: in a product an inf or NaN would reach every output through the zero
    weights (0 * inf is NaN), while interpolation only spreads it to its neighbours.
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
        self._matrix = None
        self._taps = None

    def taps(self, xp):
        """`(i0, a0, i1, a1)` as arrays of `xp` (copied to the device once)."""
        if xp is numpy:
            return self.i0, self.a0, self.i1, self.a1
        if self._taps is None:
            self._taps = tuple(xp.asarray(a) for a in (self.i0, self.a0, self.i1, self.a1))
        return self._taps

    def matrix(self, xp):
        """The (out, in) interpolation matrix (two weights a row; one where both taps
        meet at the edge, their sum)."""
        if self._matrix is None:
            rows = numpy.arange(len(self.i0))
            m = numpy.zeros((len(self.i0), self.in_size), dtype=self.a0.dtype)
            numpy.add.at(m, (rows, self.i0), self.a0)
            if self.linear:
                numpy.add.at(m, (rows, self.i1), self.a1)
            self._matrix = xp.asarray(m)
        return self._matrix

    def apply_last(self, x):
        """Interpolate `x` along its last axis."""
        xp = backend.get_array_module(x)
        lead = x.shape[:-1]
        y = x.reshape(-1, x.shape[-1]).dot(self.matrix(xp).T)
        return y.reshape(lead + (y.shape[-1],))

    def apply_rows(self, x):
        """Interpolate `x` (..., rows, cols) along its rows axis."""
        xp = backend.get_array_module(x)
        y = xp.matmul(self.matrix(xp), x.reshape((-1,) + x.shape[-2:]))
        return y.reshape(x.shape[:-2] + y.shape[-2:])

    def transpose_last(self, g):
        """Adjoint of `apply_last`."""
        xp = backend.get_array_module(g)
        lead = g.shape[:-1]
        out = g.reshape(-1, g.shape[-1]).dot(self.matrix(xp))
        return out.reshape(lead + (out.shape[-1],))

    def transpose_rows(self, g):
        """Adjoint of `apply_rows`."""
        xp = backend.get_array_module(g)
        out = xp.matmul(self.matrix(xp).T, g.reshape((-1,) + g.shape[-2:]))
        return out.reshape(g.shape[:-2] + out.shape[-2:])

    def gather(self, x, axis):
        """Interpolate `x` along `axis` (a negative axis) by gathering the two taps."""
        xp = backend.get_array_module(x)
        i0, a0, i1, a1 = self.taps(xp)
        shape = (-1,) + (1,) * (-axis - 1)
        y = xp.take(x, i0, axis=axis) * a0.reshape(shape)
        if self.linear:
            y += xp.take(x, i1, axis=axis) * a1.reshape(shape)
        return y

    def scatter(self, g, axis):
        """Adjoint of `gather`: add `g` back onto the source positions."""
        xp = backend.get_array_module(g)
        shape = (-1,) + (1,) * (-axis - 1)
        out_shape = list(g.shape)
        out_shape[axis] = self.in_size
        out = xp.zeros(out_shape, dtype=g.dtype)
        terms = [(self.i0, self.a0)]
        if self.linear:
            terms.append((self.i1, self.a1))
        lead = (slice(None),) * (g.ndim + axis)
        if xp is not numpy:   # one scatter-add a tap on the device
            i0, a0, i1, a1 = self.taps(xp)
            for idx, a in ((i0, a0), (i1, a1))[:len(terms)]:
                scatter.scatter_add(out, lead + (idx,), g * a.reshape(shape))
            return out
        for idx, a in terms:
            weighted = g * a.reshape(shape)
            for j, i in enumerate(idx.tolist()):
                out[lead + (i,)] += weighted[lead + (j,)]
        return out


def _all_finite(a):
    xp = backend.get_array_module(a)
    if xp is not numpy:
        # on a GPU the gather and scatter-add take any values, and the check would read
        # the sum back to the host
        return False
    with numpy.errstate(invalid='ignore', over='ignore'):
        return bool(xp.isfinite(a.sum()))   # (a sum past the float range only costs speed)


def _interpolate(x, rows, cols):
    """Bilinear (or nearest) interpolation of `x` (..., H, W): columns, then rows; an
    axis that only selects (no fractional weight) is gathered, exactly."""
    product = _all_finite(x)
    t = cols.apply_last(x) if product and cols.linear else cols.gather(x, -1)
    return rows.apply_rows(t) if product and rows.linear else rows.gather(t, -2)


def _interpolate_grad(gy, rows, cols):
    """Adjoint of `_interpolate`."""
    product = _all_finite(gy)
    g = rows.transpose_rows(gy) if product and rows.linear else rows.scatter(gy, -2)
    return cols.transpose_last(g) if product and cols.linear else cols.scatter(g, -1)


def _interpolators(out_size, in_size, mode, align_corners, dtype, xp):
    # the taps depend on the sizes only: computed on the host, sent to a device once
    v, u, vw, uw = compute_indices_and_weights(out_size, in_size, mode, align_corners,
                                               numpy)
    return (_AxisInterp(v, vw, in_size[0], dtype),
            _AxisInterp(u, uw, in_size[1], dtype))


def _check_float32_images(in_types, name):
    type_check.argname(in_types, (name,))
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
        return _interpolate(x, rows, cols),

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
        return _interpolate_grad(gy, rows, cols),

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
