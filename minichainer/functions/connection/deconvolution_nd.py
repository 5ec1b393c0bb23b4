"""N-dimensional deconvolution (transposed convolution) on the engine of `convolution_nd`.

The forward is the convolution's data gradient (`W.T @ x` then `col2im`); the
backward is a convolution (data gradient) and the convolution's filter gradient.
"""
from minichainer import backend
from minichainer import function_node
# convolution_nd imports this module too: names are looked up at call time (either module
# may be imported first).
from minichainer.functions.connection import convolution_nd as _engine
from minichainer.utils import allocator
from minichainer.utils import conv
from minichainer.utils.conv import ConvolutionShapeError
from minichainer.utils import type_check


class DeconvolutionND(function_node.FunctionNode):
    """FunctionNode of every deconvolution:
    [`deconvolution_nd`][minichainer.functions.connection.deconvolution_nd.deconvolution_nd] and,
    through `Deconvolution2DFunction`,
    [`deconvolution_2d`][minichainer.functions.connection.deconvolution_2d.deconvolution_2d]."""

    cover_all = None
    _owner = 'deconvolution_nd'
    _bias_same_dtype = False
    _x_cn = None  # optional channel-major copy of x supplied by ConvolutionND.backward

    def __init__(self, ndim, stride=1, pad=0, outsize=None, dilate=1, groups=1):
        self.ndim = ndim
        self.stride, self.pad, self.dilate, self.groups = _engine._parse_params(
            self._owner, ndim, stride, pad, dilate, groups)
        self.outs = None if outsize is None else tuple(outsize)
        if self.outs is not None and len(self.outs) != ndim:
            raise ValueError('{}: outsize must have {} elements, got {!r}'.format(
                self._owner, ndim, outsize))

    def check_type_forward(self, in_types):
        if type_check.eval(in_types.size()) >= 2:
            _engine._check_groups_type(self._owner, in_types, self.groups,
                                       in_types[0].shape[1])
        n_in, x_type, w_type = _engine._check_x_W_types(in_types, self.ndim + 2)
        type_check.expect(x_type.shape[1] == w_type.shape[0])
        if self.outs is not None:
            for i, (out, s, p, di) in enumerate(zip(
                    self.outs, self.stride, self.pad, self.dilate)):
                if out is None:
                    continue
                lower = conv.get_conv_outsize(out, w_type.shape[i + 2], s, p, d=di)
                upper = conv.get_conv_outsize(out, w_type.shape[i + 2], s, p,
                                              cover_all=True, d=di)
                type_check.expect(lower <= x_type.shape[i + 2],
                                  x_type.shape[i + 2] <= upper)
        _engine._check_b_type(in_types, n_in, x_type, w_type.shape[1] * self.groups,
                              self._bias_same_dtype)

    def _out_dims(self, x, W):
        """`outsize`, or the deconvolution's natural output size (Chainer's rule) on
        the axes where it is not given (`None`)."""
        ksize = W.shape[2:]
        if any(k < 1 for k in ksize):
            raise ConvolutionShapeError('{}: the kernel size must be positive, got {} '
                                        '(input shape {})'.format(
                                            self._owner, tuple(ksize), x.shape))
        given = self.outs or (None,) * self.ndim
        if None not in given:
            return given
        outs = tuple(conv.get_deconv_outsize(d, k, s, p, d=di) if o is None else o
                     for o, d, k, s, p, di in zip(given, x.shape[2:], ksize, self.stride,
                                                  self.pad, self.dilate))
        if any(o <= 0 for o in outs):
            raise ConvolutionShapeError(
                '{}: output size {} is not positive: input shape {}, kernel {}, '
                'stride {}, pad {}, dilate {}'.format(
                    self._owner, outs, x.shape, tuple(ksize), self.stride, self.pad,
                    self.dilate))
        return outs

    def forward(self, inputs):
        allocator.tune_on_first_use()
        self.retain_inputs((0, 1))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        _engine._check_channels(self._owner, self.groups, x.shape[1],
                                W.shape[1] * self.groups, x.shape)
        self.outs = self._out_dims(x, W)
        ksize = W.shape[2:]
        self.cover_all = any(
            d != conv.get_conv_outsize(o, k, s, p, d=di) for d, o, k, s, p, di in
            zip(x.shape[2:], self.outs, ksize, self.stride, self.pad, self.dilate))
        x_cn = self._x_cn
        self._x_cn = None
        xp = backend.get_array_module(x)
        if _engine._deconv_by_conv_ok(x, W, self.stride, self.pad, self.dilate, self.outs,
                                      self.groups):
            return _engine._deconv_forward_by_conv(x, W, b, self.pad, self.dilate,
                                                   self.outs, xp),
        if x_cn is None:
            x_cn = _engine._channel_major(x)
        y = _engine._deconv_forward(x_cn, W, b, x.shape, self.stride, self.pad,
                                    self.dilate, self.outs, self.groups, x.dtype, xp)
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        ret = []
        conv = None
        if 0 in indexes:
            conv = _engine.ConvolutionND(self.ndim, self.stride, self.pad, self.cover_all,
                                         dilate=self.dilate, groups=self.groups)
            gx, = conv.apply((gy, W))
            ret.append(gx)
        if 1 in indexes:
            # the filter gradient needs the patches of gy that the data gradient took
            gW, = _engine.ConvolutionNDGradW(self, patches_of=conv).apply((gy, x))
            ret.append(gW)
        if 2 in indexes:
            ret.append(_engine._bias_grad(gy, self.inputs[2]))
        return ret


def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """N-dimensional deconvolution of `x` (n, c_I, d_1..d_N) with `W` (c_I, c_O/groups, k...).

    The output size is `outsize` or `s * (d - 1) + k' - 2 * p` per axis.

    Raises:
        ValueError: a non-positive `stride`/`dilate`/`groups` or kernel size, a
            negative `pad`, `groups` not dividing the channels, or a non-positive
            output size (also an `AssertionError`, as Chainer raises there).
    """
    ndim = _engine._spatial_ndim('deconvolution_nd', x)
    _engine._parse_params('deconvolution_nd', ndim, stride, pad, dilate, groups, x.shape)
    func = DeconvolutionND(ndim, stride, pad, outsize, dilate=dilate, groups=groups)
    args = (x, W) if b is None else (x, W, b)
    y, = func.apply(args)
    return y


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """1-D deconvolution (`deconvolution_nd` on 3-D input).

    Raises:
        ValueError: if `x` is not 3-dimensional.
    """
    _engine._check_spatial_ndim(x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """3-D deconvolution (`deconvolution_nd` on 5-D input).

    Raises:
        ValueError: if `x` is not 5-dimensional.
    """
    _engine._check_spatial_ndim(x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
