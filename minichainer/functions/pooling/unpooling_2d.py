"""Inverse of 2-D pooling: repeats each value over its window."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.pooling import pooling_2d
from minichainer.utils import conv
from minichainer.utils import type_check


def check_outsize_type(node, x_type):
    """Type check of the input of an unpooling-like node against its `(outh, outw)`."""
    if node.outh is not None:
        expected_h = conv.get_conv_outsize(
            node.outh, node.kh, node.sy, node.ph, cover_all=node.cover_all)
        type_check.expect(x_type.shape[2] == expected_h)
    if node.outw is not None:
        expected_w = conv.get_conv_outsize(
            node.outw, node.kw, node.sx, node.pw, cover_all=node.cover_all)
        type_check.expect(x_type.shape[3] == expected_w)


def infer_outsize(node, h, w):
    """Fill in `outh`/`outw` not given, from the input's (h, w) (inverse of pooling)."""
    if node.outh is None:
        node.outh = conv.get_deconv_outsize(
            h, node.kh, node.sy, node.ph, cover_all=node.cover_all)
    if node.outw is None:
        node.outw = conv.get_deconv_outsize(
            w, node.kw, node.sx, node.pw, cover_all=node.cover_all)


def check_float_input(in_types, ndim):
    """Type-check the one float input of an unpooling of `ndim` dims; return its type."""
    n_in = in_types.size()
    type_check.expect(n_in == 1)
    x_type = in_types[0]
    type_check.expect(
        x_type.dtype.kind == 'f',
        x_type.ndim == ndim,
    )
    return x_type


class Unpooling2D(pooling_2d.Pooling2D):
    """Unpooling over a set of 2d planes."""

    def __init__(self, ksize, stride=None, pad=0, outsize=None, cover_all=True):
        super().__init__(ksize, stride, pad, cover_all)
        self.outh, self.outw = (None, None) if outsize is None else outsize

    def check_type_forward(self, in_types):
        x_type = check_float_input(in_types, 4)
        check_outsize_type(self, x_type)

    def forward(self, x):
        h, w = x[0].shape[2:]
        infer_outsize(self, h, w)
        xp = backend.get_array_module(*x)
        col = xp.broadcast_to(x[0][:, :, None, None],
                              x[0].shape[:2] + (self.kh, self.kw) + x[0].shape[2:])
        y = conv.col2im_cpu(col, self.sy, self.sx, self.ph, self.pw, self.outh, self.outw)
        return y,

    def backward(self, indexes, grad_outputs):
        return Unpooling2DGrad(self).apply(grad_outputs)


class Window2DGrad(function_node.FunctionNode):
    """Base of the gradients of
    [`unpooling_2d`][minichainer.functions.pooling.unpooling_2d.unpooling_2d] and
    [`upsampling_2d`][minichainer.functions.pooling.upsampling_2d.upsampling_2d]: holds the
    window of the forward node (kernel, stride, padding, output size, cover_all)."""

    _window = ('kh', 'kw', 'sy', 'sx', 'ph', 'pw', 'outh', 'outw', 'cover_all')

    def __init__(self, forward_node):
        for name in self._window:
            setattr(self, name, getattr(forward_node, name))


class Unpooling2DGrad(Window2DGrad):
    """Gradient of [`unpooling_2d`][minichainer.functions.pooling.unpooling_2d.unpooling_2d]:
    sums gy over each window."""

    def forward(self, gy):
        gcol = conv.im2col_cpu(gy[0], self.kh, self.kw, self.sy, self.sx, self.ph, self.pw,
                               cover_all=self.cover_all)
        gx = gcol.sum(axis=(2, 3))
        return gx,

    def backward(self, indexes, ggx):
        return Unpooling2D((self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw),
                           (self.outh, self.outw), self.cover_all).apply(ggx)


def unpooling_2d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of pooling for 2d array: each value fills its window.

    Args:
        x (Variable or ndarray): (n, c, h, w) input.
        ksize, stride, pad: as in pooling; `stride=None` means `ksize`.
        outsize (pair of ints or None): output (h, w); by default computed from the
            input size (the inverse of the pooling output size).
        cover_all (bool): as in pooling; used to compute the output size.
    """
    return Unpooling2D(ksize, stride, pad, outsize, cover_all).apply((x,))[0]
