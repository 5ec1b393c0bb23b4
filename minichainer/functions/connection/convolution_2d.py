"""Two-dimensional convolution via im2col and a single BLAS matmul."""
import numpy

from minichainer import function_node
from minichainer.utils import argument
from minichainer.utils import conv
from minichainer.utils import type_check


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


def _matmul(a, b):
    """``a @ b`` for 2-D, or batched over the first axis for 3-D operands."""
    if a.ndim == 2:
        return a.dot(b)
    if a.shape[0] == 1:
        return a[0].dot(b[0])[None]
    return numpy.matmul(a, b)


# The im2col buffer of the forward pass is kept for the filter gradient when it is at
# most this large (recomputing it costs about a quarter of a convolution's time);
# bigger buffers are recomputed in backward, as Chainer does, to bound memory.
_COL_CACHE_MAX_BYTES = 64 * 1024 * 1024

_deterministic_msg = (
    "deterministic argument is not supported anymore. "
    "Use chainer.using_config('cudnn_deterministic', value) context "
    "where value is either `True` or `False`.")
_requires_x_grad_msg = (
    "requires_x_grad argument is not supported anymore. Just remove the argument. "
    "Note that whether to compute the gradient w.r.t. x is automatically decided "
    "during backpropagation.")


def _check_x_W_types(in_types, ndim):
    """Type check shared by the (de)convolutions: 2 or 3 inputs, ``x`` and ``W`` of a
    float dtype with ``ndim`` axes.

    Returns:
        tuple: ``(n_in, x_type, w_type)`` for the function's own checks.
    """
    n_in = in_types.size()
    type_check.expect(2 <= n_in, n_in <= 3)
    x_type, w_type = in_types[:2]
    type_check._argname((x_type, w_type), ('x', 'W'))
    type_check.expect(
        x_type.dtype.kind == 'f',
        w_type.dtype.kind == 'f',
        x_type.ndim == ndim,
        w_type.ndim == ndim,
    )
    return n_in, x_type, w_type


def _check_b_type(in_types, n_in, x_type, out_channels):
    """Type check of the optional bias: ``x``'s dtype, 1-D, ``out_channels`` elements."""
    if type_check.eval(n_in) == 3:
        b_type = in_types[2]
        type_check._argname((b_type,), ('b',))
        type_check.expect(
            b_type.dtype == x_type.dtype,
            b_type.ndim == 1,
            b_type.shape[0] == out_channels,
        )


def _conv_forward(x, W, b, sy, sx, ph, pw, dy, dx, cover_all, groups):
    """Return (y, col) for a grouped convolution; col has layout (c, kh, kw, n, oh, ow)."""
    n, c, h, w = x.shape
    out_c, _, kh, kw = W.shape
    out_h = conv.get_conv_outsize(h, kh, sy, ph, cover_all=cover_all, d=dy)
    if out_h <= 0:
        raise RuntimeError('Height in the output should be positive.')
    out_w = conv.get_conv_outsize(w, kw, sx, pw, cover_all=cover_all, d=dx)
    if out_w <= 0:
        raise RuntimeError('Width in the output should be positive.')
    col = conv._im2col_cn(x, kh, kw, sy, sx, ph, pw, dy, dx, out_h, out_w)
    G = groups
    npix = n * out_h * out_w
    if G == 1:
        y = W.reshape(out_c, -1).dot(col.reshape(-1, npix))
    else:
        y = _matmul(W.reshape(G, out_c // G, -1), col.reshape(G, -1, npix))
    if y.dtype != x.dtype:
        y = y.astype(x.dtype, copy=False)
    y = y.reshape(out_c, n, out_h, out_w)
    if b is not None:
        y += b.reshape(out_c, 1, 1, 1)
    return y.transpose(1, 0, 2, 3), col


def _channel_major(a):
    """(n, c, h, w) -> contiguous (c, n * h * w)."""
    return a.transpose(1, 0, 2, 3).reshape(a.shape[1], -1)


def _conv_grad_w(col, gy, kh, kw, groups, w_dtype, gy_cn=None):
    """gW (oc, c/G, kh, kw) from col (c, kh, kw, n, oh, ow) and gy (n, oc, oh, ow)."""
    n, out_c, out_h, out_w = gy.shape
    G = groups
    if gy_cn is None:
        gy_cn = _channel_major(gy)
    gy2 = gy_cn.reshape(G, out_c // G, n * out_h * out_w)
    colg = col.reshape(G, -1, n * out_h * out_w)
    if G == 1:
        gW = gy2[0].dot(colg[0].T)
    else:
        gW = numpy.matmul(gy2, colg.transpose(0, 2, 1))
    gW = gW.reshape(out_c, -1, kh, kw)
    if gW.dtype != w_dtype:
        gW = gW.astype(w_dtype, copy=False)
    return gW


def _deconv_forward(x, W, b, sy, sx, ph, pw, dy, dx, outh, outw, groups, x_cn=None):
    """Transposed convolution; x (n, c, h, w), W (c, oc/G, kh, kw) -> (n, oc, outh, outw)."""
    n, c, h, w = x.shape
    _, out_cg, kh, kw = W.shape
    G = groups
    out_c = out_cg * G
    npix = n * h * w
    if x_cn is None:
        x_cn = _channel_major(x)
    x2 = x_cn.reshape(G, c // G, npix)
    Wg = W.reshape(G, c // G, out_cg * kh * kw)
    if G == 1:
        gcol = Wg[0].T.dot(x2[0])
    else:
        gcol = numpy.matmul(Wg.transpose(0, 2, 1), x2)
    if gcol.dtype != x.dtype:
        gcol = gcol.astype(x.dtype, copy=False)
    gcol = gcol.reshape(out_c, kh, kw, n, h, w)
    y = conv._col2im_cn(gcol, sy, sx, ph, pw, outh, outw, dy, dx)
    if b is not None:
        y += b.reshape(1, b.size, 1, 1)
    return y


class Convolution2DFunction(function_node.FunctionNode):
    """FunctionNode of :func:`convolution_2d`.

    Unlike Chainer, the im2col buffer of the forward pass (when at most
    ``_COL_CACHE_MAX_BYTES``) is kept until the filter gradient is computed, so backward
    does not redo im2col (faster, more memory).
    """

    _col = None

    def __init__(self, stride=1, pad=0, cover_all=False, **kwargs):
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1),
            deterministic=_deterministic_msg, requires_x_grad=_requires_x_grad_msg)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.cover_all = cover_all
        self.dy, self.dx = _pair(dilate)
        self.groups = groups

    def check_type_forward(self, in_types):
        n_in, x_type, w_type = _check_x_W_types(in_types, 4)
        type_check.expect(x_type.shape[1] == w_type.shape[1] * self.groups)
        _check_b_type(in_types, n_in, x_type, w_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        if W.shape[0] % self.groups:
            raise ValueError(
                'convolution_2d: the number of output channels ({}) must be a multiple '
                'of groups ({})'.format(W.shape[0], self.groups))
        y, col = _conv_forward(
            x, W, b, self.sy, self.sx, self.ph, self.pw, self.dy, self.dx,
            self.cover_all, self.groups)
        if col.nbytes <= _COL_CACHE_MAX_BYTES:
            self._col = col
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        # gy in channel-major layout, shared by the data and the filter gradients
        gy_cn = _channel_major(gy.array) if (0 in indexes and 1 in indexes) else None
        if 0 in indexes:
            from minichainer.functions.connection.deconvolution_2d import \
                Deconvolution2DFunction
            xh, xw = x.shape[2:]
            func = Deconvolution2DFunction(
                stride=(self.sy, self.sx), pad=(self.ph, self.pw), outsize=(xh, xw),
                dilate=(self.dy, self.dx), groups=self.groups)
            func._x_cn = gy_cn
            gx, = func.apply((gy, W))
            ret.append(gx)
        if 1 in indexes:
            fgw = Convolution2DGradW(self)
            fgw._gy_cn = gy_cn
            gW, = fgw.apply((x, gy))
            ret.append(gW)
        if 2 in indexes:
            from minichainer.functions.math.sum import sum as _sum
            ret.append(_sum(gy, axis=(0, 2, 3)))
        return ret


class Convolution2DGradW(function_node.FunctionNode):
    """Gradient of a 2-D convolution w.r.t. its filter; inputs ``(x, gy)``."""

    _gy_cn = None

    def __init__(self, conv2d):
        W_node = conv2d.inputs[1]
        self.kh, self.kw = W_node.shape[2:]
        self.sy = conv2d.sy
        self.sx = conv2d.sx
        self.ph = conv2d.ph
        self.pw = conv2d.pw
        self.dy = conv2d.dy
        self.dx = conv2d.dx
        self.cover_all = conv2d.cover_all
        self.W_dtype = W_node.dtype
        self.groups = conv2d.groups
        # Reuse the forward pass' im2col buffer once (freed afterwards).
        self._col = getattr(conv2d, '_col', None)
        if self._col is not None:
            conv2d._col = None

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        col = self._col
        self._col = None
        out_h, out_w = gy.shape[2:]
        if col is None or col.shape[4:] != (out_h, out_w) or col.shape[3] != x.shape[0]:
            col = conv._im2col_cn(x, self.kh, self.kw, self.sy, self.sx, self.ph,
                                  self.pw, self.dy, self.dx, out_h, out_w)
        gy_cn = self._gy_cn
        self._gy_cn = None
        return _conv_grad_w(col, gy, self.kh, self.kw, self.groups, self.W_dtype, gy_cn),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            from minichainer.functions.connection.deconvolution_2d import deconvolution_2d
            xh, xw = x.shape[2:]
            gx = deconvolution_2d(
                gy, ggW, stride=(self.sy, self.sx), pad=(self.ph, self.pw),
                outsize=(xh, xw), dilate=(self.dy, self.dx), groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            ggy = convolution_2d(
                x, ggW, stride=(self.sy, self.sx), pad=(self.ph, self.pw),
                cover_all=self.cover_all, dilate=(self.dy, self.dx), groups=self.groups)
            ret.append(ggy)
        return ret


def convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, **kwargs):
    """convolution_2d(x, W, b=None, stride=1, pad=0, cover_all=False, *, dilate=1, groups=1)

    Two-dimensional convolution (cross-correlation) of ``x`` (n, c, h, w) with filters
    ``W`` (c_O, c / groups, kh, kw) plus optional bias ``b`` (c_O,).

    Returns:
        Variable: output of shape (n, c_O, h_O, w_O) with
        ``h_O = (h + 2 * ph - kh') // sy + 1`` (``kh' = kh + (kh - 1) * (dy - 1)``).
    """
    dilate, groups = argument.parse_kwargs(
        kwargs, ('dilate', 1), ('groups', 1),
        deterministic=_deterministic_msg)
    fnode = Convolution2DFunction(stride, pad, cover_all, dilate=dilate, groups=groups)
    if b is None:
        args = x, W
    else:
        args = x, W, b
    y, = fnode.apply(args)
    return y
