"""N-dimensional convolution via im2col and a single BLAS matmul."""
from minichainer import function_node
from minichainer.functions.connection.convolution_2d import _matmul
from minichainer.functions.connection.convolution_2d import _check_x_W_types
from minichainer.utils import conv
from minichainer.utils import conv_nd
from minichainer.utils import type_check


def _check_b_type(in_types, n_in, out_channels):
    """Type check of the optional bias of the N-d (de)convolutions: any float dtype (it
    is cast into the output's dtype, as in Chainer), 1-D, ``out_channels`` elements."""
    if type_check.eval(n_in) == 3:
        b_type = in_types[2]
        type_check._argname((b_type,), ('b',))
        type_check.expect(
            b_type.dtype.kind == 'f',
            b_type.ndim == 1,
            b_type.shape[0] == out_channels,
        )


def _bias_grad(gy, b_node):
    from minichainer.functions.math.sum import sum as _sum
    gb = _sum(gy, axis=(0,) + tuple(range(2, gy.ndim)))
    if gb.dtype != b_node.dtype:
        from minichainer.functions.array.cast import cast
        gb = cast(gb, b_node.dtype)
    return gb


def _conv2d_module():
    import sys
    return sys.modules['minichainer.functions.connection.convolution_2d']


def _check_spatial_ndim(x, ndim):
    """Raise ValueError unless ``x`` has exactly ``ndim`` axes after (batch, channel)."""
    if len(x.shape[2:]) != ndim:
        raise ValueError(
            'The number of dimensions under channel dimension of the input '
            "'x' should be {}. But the actual ndim was {}.".format(ndim, len(x.shape[2:])))


def _conv_nd_forward(x, W, b, stride, pad, dilate, cover_all, groups):
    n, c = x.shape[:2]
    out_c = W.shape[0]
    ksize = W.shape[2:]
    outs = []
    for d, k, s, p, di in zip(x.shape[2:], ksize, stride, pad, dilate):
        o = conv.get_conv_outsize(d, k, s, p, cover_all=cover_all, d=di)
        if o <= 0:
            raise RuntimeError('Output sizes should be positive.')
        outs.append(o)
    outs = tuple(outs)
    col = conv_nd._im2col_nd_cn(x, ksize, stride, pad, dilate, outs)
    npix = n
    for o in outs:
        npix *= o
    G = groups
    y = _matmul(W.reshape(G, out_c // G, -1), col.reshape(G, -1, npix))
    if y.dtype != x.dtype:
        y = y.astype(x.dtype, copy=False)
    y = y.reshape((out_c, n) + outs)
    if b is not None:
        y += b.reshape((out_c,) + (1,) * (len(outs) + 1))
    return y.swapaxes(0, 1), col


def _conv_nd_grad_w(col, gy, ksize, groups, w_dtype):
    n, out_c = gy.shape[:2]
    npix = gy.size // out_c
    G = groups
    gy2 = gy.swapaxes(0, 1).reshape(G, out_c // G, npix)
    colg = col.reshape(G, -1, npix)
    gW = _matmul(gy2, colg.transpose(0, 2, 1)).reshape((out_c, -1) + tuple(ksize))
    if gW.dtype != w_dtype:
        gW = gW.astype(w_dtype, copy=False)
    return gW


def _deconv_nd_forward(x, W, b, stride, pad, dilate, outs, groups):
    n, c = x.shape[:2]
    out_cg = W.shape[1]
    ksize = W.shape[2:]
    G = groups
    out_c = out_cg * G
    npix = x.size // c
    x2 = x.swapaxes(0, 1).reshape(G, c // G, npix)
    Wg = W.reshape(G, c // G, -1)
    gcol = _matmul(Wg.transpose(0, 2, 1), x2)
    if gcol.dtype != x.dtype:
        gcol = gcol.astype(x.dtype, copy=False)
    gcol = gcol.reshape((out_c,) + tuple(ksize) + (n,) + x.shape[2:])
    y = conv_nd._col2im_nd_cn(gcol, stride, pad, outs, dilate)
    if b is not None:
        y += b.reshape((1, b.size) + (1,) * len(outs))
    return y


class ConvolutionND(function_node.FunctionNode):
    """FunctionNode of :func:`convolution_nd` (the im2col buffer is reused in backward)."""

    _col = None

    def __init__(self, ndim, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
        self.ndim = ndim
        self.stride = conv_nd.as_tuple(stride, ndim)
        self.pad = conv_nd.as_tuple(pad, ndim)
        self.cover_all = cover_all
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        self.groups = groups

    def check_type_forward(self, in_types):
        n_in, x_type, w_type = _check_x_W_types(in_types, self.ndim + 2)
        type_check.expect(x_type.shape[1] == w_type.shape[1] * self.groups)
        _check_b_type(in_types, n_in, w_type.shape[0])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        if W.shape[0] % self.groups:
            raise ValueError(
                'convolution_nd: the number of output channels ({}) must be a multiple '
                'of groups ({})'.format(W.shape[0], self.groups))
        y, col = _conv_nd_forward(x, W, b, self.stride, self.pad, self.dilate,
                                  self.cover_all, self.groups)
        if col.nbytes <= _conv2d_module()._COL_CACHE_MAX_BYTES:
            self._col = col
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            from minichainer.functions.connection.deconvolution_nd import deconvolution_nd
            gx = deconvolution_nd(gy, W, stride=self.stride, pad=self.pad,
                                  outsize=x.shape[2:], dilate=self.dilate,
                                  groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            gW, = ConvolutionNDGradW(self).apply((x, gy))
            ret.append(gW)
        if 2 in indexes:
            ret.append(_bias_grad(gy, self.inputs[2]))
        return ret


class ConvolutionNDGradW(function_node.FunctionNode):
    """Gradient of an N-d convolution w.r.t. its filter; inputs ``(x, gy)``."""

    def __init__(self, convnd):
        W_node = convnd.inputs[1]
        self.ndim = convnd.ndim
        self.ksize = W_node.shape[2:]
        self.stride = convnd.stride
        self.pad = convnd.pad
        self.cover_all = convnd.cover_all
        self.dilate = convnd.dilate
        self.groups = convnd.groups
        self.W_dtype = W_node.dtype
        self._col = getattr(convnd, '_col', None)
        if self._col is not None:
            convnd._col = None

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        col = self._col
        self._col = None
        outs = gy.shape[2:]
        if (col is None or col.shape[self.ndim + 2:] != outs
                or col.shape[self.ndim + 1] != x.shape[0]):
            col = conv_nd._im2col_nd_cn(x, self.ksize, self.stride, self.pad,
                                        self.dilate, outs)
        return _conv_nd_grad_w(col, gy, self.ksize, self.groups, self.W_dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            from minichainer.functions.connection.deconvolution_nd import deconvolution_nd
            gx = deconvolution_nd(gy, ggW, stride=self.stride, pad=self.pad,
                                  outsize=x.shape[2:], dilate=self.dilate,
                                  groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            ggy = convolution_nd(x, ggW, stride=self.stride, pad=self.pad,
                                 cover_all=self.cover_all, dilate=self.dilate,
                                 groups=self.groups)
            ret.append(ggy)
        return ret


def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """N-dimensional convolution of ``x`` (n, c, d_1..d_N) with ``W`` (c_O, c/groups, k_1..k_N).

    Returns:
        Variable: output of shape (n, c_O, out_1..out_N).
    """
    ndim = len(x.shape[2:])
    func = ConvolutionND(ndim, stride, pad, cover_all, dilate=dilate, groups=groups)
    args = (x, W) if b is None else (x, W, b)
    y, = func.apply(args)
    return y


def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """1-D convolution (``convolution_nd`` on 3-D input).

    Raises:
        ValueError: if ``x`` is not 3-dimensional.
    """
    _check_spatial_ndim(x, 1)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """3-D convolution (``convolution_nd`` on 5-D input).

    Raises:
        ValueError: if ``x`` is not 5-dimensional.
    """
    _check_spatial_ndim(x, 3)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
