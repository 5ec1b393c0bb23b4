"""Two-dimensional deconvolution (transposed convolution)."""
from minichainer import function_node
from minichainer.functions.connection.convolution_2d import _pair  # noqa: F401
from minichainer.functions.connection.convolution_2d import convolution_2d
from minichainer.functions.connection.convolution_2d import Convolution2DGradW
from minichainer.functions.connection.convolution_2d import _deconv_forward
from minichainer.functions.connection.convolution_2d import _check_b_type
from minichainer.functions.connection.convolution_2d import _check_x_W_types
from minichainer.functions.connection.convolution_2d import _deterministic_msg
from minichainer.functions.connection.convolution_2d import _requires_x_grad_msg
from minichainer.utils import argument
from minichainer.utils import conv
from minichainer.utils import type_check


class Deconvolution2DFunction(function_node.FunctionNode):
    """FunctionNode of :func:`deconvolution_2d`."""

    cover_all = None
    _x_cn = None  # optional channel-major copy of x supplied by Convolution2DFunction

    def __init__(self, stride=1, pad=0, outsize=None, **kwargs):
        dilate, groups = argument.parse_kwargs(
            kwargs, ('dilate', 1), ('groups', 1),
            deterministic=_deterministic_msg,
            requires_x_grad=_requires_x_grad_msg)
        self.sy, self.sx = _pair(stride)
        self.ph, self.pw = _pair(pad)
        self.outh, self.outw = (None, None) if outsize is None else outsize
        self.dy, self.dx = _pair(dilate)
        self.groups = groups

    def check_type_forward(self, in_types):
        n_in, x_type, w_type = _check_x_W_types(in_types, 4)
        type_check.expect(x_type.shape[1] == w_type.shape[0])
        if self.outh is not None:
            lower = conv.get_conv_outsize(self.outh, w_type.shape[2], self.sy, self.ph,
                                          d=self.dy)
            upper = conv.get_conv_outsize(self.outh, w_type.shape[2], self.sy, self.ph,
                                          cover_all=True, d=self.dy)
            type_check.expect(lower <= x_type.shape[2], x_type.shape[2] <= upper)
        if self.outw is not None:
            lower = conv.get_conv_outsize(self.outw, w_type.shape[3], self.sx, self.pw,
                                          d=self.dx)
            upper = conv.get_conv_outsize(self.outw, w_type.shape[3], self.sx, self.pw,
                                          cover_all=True, d=self.dx)
            type_check.expect(lower <= x_type.shape[3], x_type.shape[3] <= upper)
        _check_b_type(in_types, n_in, x_type, w_type.shape[1] * self.groups)

    def _calc_out_size(self, x, W):
        kh, kw = W.shape[2:]
        in_h, in_w = x.shape[2:]
        if self.outh is None:
            self.outh = conv.get_deconv_outsize(in_h, kh, self.sy, self.ph, d=self.dy)
            if self.outh <= 0:
                raise RuntimeError('Height in the output must be positive.')
        if self.outw is None:
            self.outw = conv.get_deconv_outsize(in_w, kw, self.sx, self.pw, d=self.dx)
            if self.outw <= 0:
                raise RuntimeError('Width in the output must be positive.')

    def _set_cover_all(self, x, W):
        in_h, in_w = x.shape[2:]
        kh, kw = W.shape[2:]
        self.cover_all = (
            in_h != conv.get_conv_outsize(self.outh, kh, self.sy, self.ph, d=self.dy)
            or in_w != conv.get_conv_outsize(self.outw, kw, self.sx, self.pw, d=self.dx))

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        if x.shape[1] % self.groups:
            raise ValueError(
                'deconvolution_2d: the number of input channels ({}) must be a multiple '
                'of groups ({})'.format(x.shape[1], self.groups))
        self._calc_out_size(x, W)
        self._set_cover_all(x, W)
        x_cn = self._x_cn
        self._x_cn = None
        y = _deconv_forward(x, W, b, self.sy, self.sx, self.ph, self.pw,
                            self.dy, self.dx, self.outh, self.outw, self.groups, x_cn)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            gx = convolution_2d(
                gy, W, stride=(self.sy, self.sx), pad=(self.ph, self.pw),
                cover_all=self.cover_all, dilate=(self.dy, self.dx), groups=self.groups)
            ret.append(gx)
        if 1 in indexes:
            gW, = Convolution2DGradW(self).apply((gy, x))
            ret.append(gW)
        if 2 in indexes:
            from minichainer.functions.math.sum import sum as _sum
            ret.append(_sum(gy, axis=(0, 2, 3)))
        return ret


def deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, **kwargs):
    """deconvolution_2d(x, W, b=None, stride=1, pad=0, outsize=None, *, dilate=1, groups=1)

    Two-dimensional deconvolution (transposed convolution) of ``x`` (n, c_I, h, w)
    with ``W`` (c_I, c_O / groups, kh, kw) and optional bias ``b`` (c_O,).

    The output size is ``outsize`` or ``s * (h - 1) + kh' - 2 * p`` per axis.
    """
    argument.check_unexpected_kwargs(
        kwargs, deterministic=_deterministic_msg)
    dilate, groups = argument.parse_kwargs(kwargs, ('dilate', 1), ('groups', 1))
    func = Deconvolution2DFunction(stride, pad, outsize, dilate=dilate, groups=groups)
    if b is None:
        args = x, W
    else:
        args = x, W, b
    y, = func.apply(args)
    return y
