"""Resizing images by interpolation (``chainer.functions.resize_images``)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


def compute_indices_and_weights(out_size, in_size, mode, align_corners, xp):
    """Source rows/columns and fractional weights of every output row/column.

    Returns ``(v, u, vw, uw)`` (float64): output row ``i`` reads input rows ``v[i]`` and
    ``v[i] + 1`` with weights ``1 - vw[i]`` and ``vw[i]`` (columns likewise).
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


def _interp_matrix(idx, weight, in_size, dtype, xp):
    """Matrix ``M`` (out, in) with ``M[i, idx[i]] = 1 - w[i]``, ``M[i, idx[i]+1] = w[i]``."""
    n = len(idx)
    idx = idx.astype(numpy.intp)
    upper = xp.minimum(idx + 1, in_size - 1)
    m = xp.zeros((n, in_size), dtype=numpy.float64)
    rows = xp.arange(n)
    xp.add.at(m, (rows, idx), 1 - weight)
    xp.add.at(m, (rows, upper), weight)
    return m.astype(dtype)


def _interp_matrices(out_size, in_size, mode, align_corners, dtype, xp):
    v, u, vw, uw = compute_indices_and_weights(out_size, in_size, mode, align_corners, xp)
    # Chainer rounds the weights to the data dtype before interpolating.
    vw = vw.astype(dtype).astype(numpy.float64)
    uw = uw.astype(dtype).astype(numpy.float64)
    return (_interp_matrix(v, vw, in_size[0], dtype, xp),
            _interp_matrix(u, uw, in_size[1], dtype, xp))


class ResizeImages(function_node.FunctionNode):
    """Resize ``(N, C, H, W)`` images by bilinear or nearest-neighbour interpolation.

    Bilinear interpolation is separable, so it runs as two matrix products
    ``Mv @ x @ Mu.T``; the gradient is ``Mv.T @ gy @ Mu``.
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
        type_check._argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype == numpy.float32, x_type.ndim == 4)

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        mv, mu = _interp_matrices((self.out_H, self.out_W), x.shape[2:], self.mode,
                                  self.align_corners, x.dtype, xp)
        return xp.matmul(mv, xp.matmul(x, mu.T)),

    def backward(self, indexes, grad_outputs):
        return ResizeImagesGrad(self.inputs[0].shape, (self.out_H, self.out_W), self.mode,
                                self.align_corners).apply(grad_outputs)


class ResizeImagesGrad(function_node.FunctionNode):
    """Gradient of :class:`ResizeImages` (the transposed interpolation)."""

    def __init__(self, input_shape, output_shape, mode, align_corners):
        self.out_H = output_shape[0]
        self.out_W = output_shape[1]
        self.input_shape = input_shape
        self.mode = mode
        self.align_corners = align_corners

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('gy',))
        gy_type = in_types[0]
        type_check.expect(gy_type.dtype == numpy.float32, gy_type.ndim == 4)

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        mv, mu = _interp_matrices((self.out_H, self.out_W), self.input_shape[2:],
                                  self.mode, self.align_corners, gy.dtype, xp)
        return xp.matmul(mv.T, xp.matmul(gy, mu)),

    def backward(self, indexes, grad_outputs):
        return ResizeImages((self.out_H, self.out_W), self.mode,
                            self.align_corners).apply(grad_outputs)


def resize_images(x, output_shape, *, mode='bilinear', align_corners=True):
    """Resize ``(N, C, H, W)`` float32 images to ``output_shape = (out_H, out_W)``.

    Args:
        x (~minichainer.Variable or numpy.ndarray): float32 input ``(N, C, H, W)``.
        output_shape (tuple of int): ``(out_H, out_W)``.
        mode (str): ``'bilinear'`` or ``'nearest'``.
        align_corners (bool): In bilinear mode, map the corner pixels of input and
            output onto each other (Chainer's default); otherwise pixel centres are
            scaled (as OpenCV/PIL).

    Returns:
        ~minichainer.Variable: The resized images ``(N, C, out_H, out_W)``.
    """
    return ResizeImages(output_shape, mode, align_corners).apply((x,))[0]
