"""N-dimensional deconvolution (transposed convolution)."""
from minichainer import function_node
from minichainer.functions.connection.convolution_2d import _check_x_W_types
from minichainer.functions.connection.convolution_nd import _bias_grad
from minichainer.functions.connection.convolution_nd import _check_b_type
from minichainer.functions.connection.convolution_nd import _check_spatial_ndim
from minichainer.functions.connection.convolution_nd import _deconv_nd_forward
from minichainer.functions.connection.convolution_nd import convolution_nd
from minichainer.functions.connection.convolution_nd import ConvolutionNDGradW
from minichainer.utils import conv
from minichainer.utils import conv_nd
from minichainer.utils import type_check


class DeconvolutionND(function_node.FunctionNode):
    """FunctionNode of :func:`deconvolution_nd`."""

    cover_all = None

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1, groups=1):
        self.ndim = ndim
        self.stride = conv_nd.as_tuple(stride, ndim)
        self.pad = conv_nd.as_tuple(pad, ndim)
        self.outs = None if outsize is None else tuple(outsize)
        if self.outs is not None and len(self.outs) != ndim:
            raise ValueError('deconvolution_nd: outsize must have {} elements, got {!r}'
                             .format(ndim, outsize))
        self.dilate = conv_nd.as_tuple(dilate, ndim)
        self.groups = groups

    def check_type_forward(self, in_types):
        n_in, x_type, w_type = _check_x_W_types(in_types, self.ndim + 2)
        type_check.expect(x_type.shape[1] == w_type.shape[0])
        if self.outs is not None:
            for i, (out, s, p, di) in enumerate(zip(
                    self.outs, self.stride, self.pad, self.dilate)):
                lower = conv.get_conv_outsize(out, w_type.shape[i + 2], s, p, d=di)
                upper = conv.get_conv_outsize(out, w_type.shape[i + 2], s, p,
                                              cover_all=True, d=di)
                type_check.expect(lower <= x_type.shape[i + 2],
                                  x_type.shape[i + 2] <= upper)
        _check_b_type(in_types, n_in, w_type.shape[1] * self.groups)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        if x.shape[1] % self.groups:
            raise ValueError(
                'deconvolution_nd: the number of input channels ({}) must be a multiple '
                'of groups ({})'.format(x.shape[1], self.groups))
        ksize = W.shape[2:]
        if self.outs is None:
            self.outs = tuple(
                conv.get_deconv_outsize(d, k, s, p, d=di) for d, k, s, p, di in
                zip(x.shape[2:], ksize, self.stride, self.pad, self.dilate))
            if any(o <= 0 for o in self.outs):
                # AssertionError, as Chainer's deconvolution_nd raises here.
                raise AssertionError(
                    'Output sizes should be positive, got {} (input {}, pad {}).'.format(
                        self.outs, x.shape[2:], self.pad))
        self.cover_all = any(
            d != conv.get_conv_outsize(o, k, s, p, d=di) for d, o, k, s, p, di in
            zip(x.shape[2:], self.outs, ksize, self.stride, self.pad, self.dilate))
        y = _deconv_nd_forward(x, W, b, self.stride, self.pad, self.dilate,
                               self.outs, self.groups)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = convolution_nd(gy, W, stride=self.stride, pad=self.pad,
                                cover_all=self.cover_all, dilate=self.dilate,
                                groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            gW, = ConvolutionNDGradW(self).apply((gy, x))
            ret.append(gW)
        if 2 in indexes:
            ret.append(_bias_grad(gy, self.inputs[2]))
        return ret


def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """N-dimensional deconvolution of ``x`` (n, c_I, d_1..d_N) with ``W`` (c_I, c_O/groups, k...).

    The output size is ``outsize`` or ``s * (d - 1) + k' - 2 * p`` per axis.
    """
    ndim = len(x.shape[2:])
    func = DeconvolutionND(ndim, stride, pad, outsize, dilate=dilate, groups=groups)
    args = (x, W) if b is None else (x, W, b)
    y, = func.apply(args)
    return y


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """1-D deconvolution (``deconvolution_nd`` on 3-D input).

    Raises:
        ValueError: if ``x`` is not 3-dimensional.
    """
    _check_spatial_ndim(x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """3-D deconvolution (``deconvolution_nd`` on 5-D input).

    Raises:
        ValueError: if ``x`` is not 5-dimensional.
    """
    _check_spatial_ndim(x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
