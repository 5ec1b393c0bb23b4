"""N-dimensional unpooling."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.pooling import pooling_nd
from minichainer.functions.pooling import unpooling_2d
from minichainer.utils import conv
from minichainer.utils import conv_nd
from minichainer.utils import type_check


class UnpoolingND(pooling_nd.PoolingND):
    """Unpooling over a set of N-dimensional planes."""

    def __init__(self, ndim, ksize, stride=None, pad=0, outsize=None, cover_all=True):
        super().__init__(ndim, ksize, stride=stride, pad=pad, cover_all=cover_all)
        self.outs = None if outsize is None else tuple(outsize)

    def check_type_forward(self, in_types):
        x_type = unpooling_2d.check_float_input(in_types, 2 + self.ndim)
        if self.outs is not None:
            expected = tuple(
                conv.get_conv_outsize(out, k, s, p, cover_all=self.cover_all)
                for out, k, s, p in zip(self.outs, self.ksize, self.stride, self.pad))
            type_check.expect(x_type.shape[2:] == expected)

    def forward(self, x):
        xp = backend.get_array_module(*x)
        dims = x[0].shape[2:]
        if self.outs is None:
            self.outs = tuple(
                conv.get_deconv_outsize(d, k, s, p, cover_all=self.cover_all)
                for d, k, s, p in zip(dims, self.ksize, self.stride, self.pad))
        idx = (slice(None), slice(None)) + (None,) * self.ndim
        col = xp.broadcast_to(x[0][idx], x[0].shape[:2] + tuple(self.ksize) + dims)
        y = conv_nd.col2im_nd_cpu(col, self.stride, self.pad, self.outs)
        return y,

    def backward(self, indexes, grad_outputs):
        return UnpoolingNDGrad(self).apply(grad_outputs)


class UnpoolingNDGrad(function_node.FunctionNode):
    """Gradient of [`unpooling_nd`][minichainer.functions.pooling.unpooling_nd.unpooling_nd]."""

    def __init__(self, unpoolingnd):
        self.ndim = unpoolingnd.ndim
        self.ksize = unpoolingnd.ksize
        self.stride = unpoolingnd.stride
        self.pad = unpoolingnd.pad
        self.outs = unpoolingnd.outs
        self.cover_all = unpoolingnd.cover_all

    def forward(self, gy):
        gcol = conv_nd.im2col_nd_cpu(gy[0], self.ksize, self.stride, self.pad,
                                     cover_all=self.cover_all)
        axes = tuple(range(2, 2 + self.ndim))
        return gcol.sum(axis=axes),

    def backward(self, indexes, ggx):
        return UnpoolingND(self.ndim, self.ksize, self.stride, self.pad, self.outs,
                           self.cover_all).apply(ggx)


def unpooling_nd(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Inverse operation of N-dimensional spatial pooling (see
    [`unpooling_2d`][minichainer.functions.pooling.unpooling_2d.unpooling_2d])."""
    ndim = len(x.shape[2:])
    return UnpoolingND(ndim, ksize, stride, pad, outsize, cover_all).apply((x,))[0]


def unpooling_1d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """1-D unpooling.

    Raises:
        ValueError: if `x` is not 3-dimensional.
    """
    pooling_nd.check_spatial_ndim(x, 1)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)


def unpooling_3d(x, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """3-D unpooling.

    Raises:
        ValueError: if `x` is not 5-dimensional.
    """
    pooling_nd.check_spatial_ndim(x, 3)
    return unpooling_nd(x, ksize, stride, pad, outsize, cover_all)
