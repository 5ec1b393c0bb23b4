"""Extracting convolution patches (`chainer.functions.im2col`)."""
from minichainer import function_node
from minichainer.utils import conv
from minichainer.utils import type_check


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


class Im2Col(function_node.FunctionNode):
    """Turn an image batch into the patches a convolution would see."""

    def __init__(self, ksize, stride, pad, cover_all, dilate):
        self.kh, self.kw = _pair(ksize)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.dy, self.dx = _pair(dilate)
        self.cover_all = cover_all

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim == 4)

    def forward(self, inputs):
        x, = inputs
        col = conv.im2col_cpu(x, self.kh, self.kw, self.sy, self.sx, self.ph, self.pw,
                              cover_all=self.cover_all, dy=self.dy, dx=self.dx)
        n, c, kh, kw, out_h, out_w = col.shape
        return col.reshape(n, c * kh * kw, out_h, out_w),

    def backward(self, indexes, grad_outputs):
        return Im2ColGrad((self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw),
                          self.cover_all, (self.dy, self.dx),
                          self.inputs[0].shape).apply(grad_outputs)


class Im2ColGrad(function_node.FunctionNode):
    """Gradient of `Im2Col` (`col2im`: patches summed back into the image)."""

    def __init__(self, ksize, stride, pad, cover_all, dilate, in_shape):
        self.kh, self.kw = _pair(ksize)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.dy, self.dx = _pair(dilate)
        self.cover_all = cover_all
        self.in_shape = in_shape

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('gy',))
        gy_type = in_types[0]
        type_check.expect(gy_type.dtype.kind == 'f', gy_type.ndim == 4)

    def forward(self, inputs):
        _, c, h, w = self.in_shape
        gy, = inputs
        n, _, out_h, out_w = gy.shape
        gy = gy.reshape(n, c, self.kh, self.kw, out_h, out_w)
        gx = conv.col2im_cpu(gy, self.sy, self.sx, self.ph, self.pw, h, w, self.dy,
                             self.dx)
        return gx,

    def backward(self, indexes, grad_outputs):
        return Im2Col((self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw),
                      self.cover_all, (self.dy, self.dx)).apply(grad_outputs)


def im2col(x, ksize, stride=1, pad=0, cover_all=False, dilate=1):
    """Extract the patches a convolution filter sees from an image batch.

    Args:
        x (Variable or numpy.ndarray): Floating-point input
            `(N, C, H, W)`.
        ksize (int or pair of ints): Filter size `(kh, kw)`.
        stride (int or pair of ints): Stride `(sy, sx)`.
        pad (int or pair of ints): Spatial padding `(ph, pw)`.
        cover_all (bool): Add output positions so that every input pixel is covered.
        dilate (int or pair of ints): Dilation `(dy, dx)`.

    Returns:
        Variable: Patches of shape `(N, C * kh * kw, out_h, out_w)`,
        channel index `(c * kh + i) * kw + j`.
    """
    return Im2Col(ksize, stride, pad, cover_all, dilate).apply((x,))[0]
