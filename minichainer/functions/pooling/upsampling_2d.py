"""Upsampling with max-pooling indices (the inverse of `max_pooling_2d`)."""
from minichainer import backend
from minichainer.functions.pooling import pooling_2d
from minichainer.functions.pooling import unpooling_2d
from minichainer.utils import conv
from minichainer.utils import type_check


class Upsampling2D(pooling_2d.Pooling2D):
    """Places each input value at the position given by `indexes` in its window."""

    def __init__(self, indexes, ksize, stride=None, pad=0, outsize=None, cover_all=True):
        super().__init__(ksize, stride, pad, cover_all)
        self.indexes = indexes
        self.outh, self.outw = (None, None) if outsize is None else outsize

    def check_type_forward(self, in_types):
        x_type = unpooling_2d.check_float_input(in_types, 4)
        type_check.expect(x_type.shape == self.indexes.shape)
        unpooling_2d.check_outsize_type(self, x_type)

    def forward(self, x):
        xp = backend.get_array_module(*x)
        self._in_dtype = x[0].dtype
        n, c, h, w = x[0].shape
        unpooling_2d.infer_outsize(self, h, w)
        kk = self.kh * self.kw
        up = xp.zeros((n, c, h, w, kk), dtype=self._in_dtype)
        up.reshape(-1, kk)[xp.arange(n * c * h * w), self.indexes.ravel()] = x[0].ravel()
        up = up.reshape(n, c, h, w, self.kh, self.kw).transpose(0, 1, 4, 5, 2, 3)
        y = conv.col2im_cpu(up, self.sy, self.sx, self.ph, self.pw, self.outh, self.outw)
        return y,

    def backward(self, indexes, grad_outputs):
        return Upsampling2DGrad(self).apply(grad_outputs)


class Upsampling2DGrad(unpooling_2d.Window2DGrad):
    """Gradient of [`upsampling_2d`][minichainer.functions.pooling.upsampling_2d.upsampling_2d]:
    gathers gy at the index positions."""

    def __init__(self, upsampling2d):
        super().__init__(upsampling2d)
        self.indexes = upsampling2d.indexes

    def forward(self, gy):
        xp = backend.get_array_module(*gy)
        gcol = conv.im2col_cpu(gy[0], self.kh, self.kw, self.sy, self.sx, self.ph, self.pw,
                               cover_all=self.cover_all)
        n, c, kh, kw, out_h, out_w = gcol.shape
        gcol = gcol.transpose(0, 1, 4, 5, 2, 3).reshape(-1, kh * kw)
        indexes = self.indexes.ravel()
        gx = gcol[xp.arange(len(indexes)), indexes]
        return gx.reshape(n, c, out_h, out_w),

    def backward(self, indexes, ggx):
        return Upsampling2D(self.indexes, (self.kh, self.kw), (self.sy, self.sx),
                            (self.ph, self.pw), (self.outh, self.outw),
                            self.cover_all).apply(ggx)


def upsampling_2d(x, indexes, ksize, stride=None, pad=0, outsize=None, cover_all=True):
    """Upsampling using pooling indices (from `max_pooling_2d(..., return_indices=True)`).

    Args:
        x (Variable or ndarray): (n, c, h, w) input.
        indexes (ndarray): int array of x's shape: position within each window.
        ksize, stride, pad, cover_all: as used by the max pooling.
        outsize (pair of ints or None): output (h, w).
    """
    return Upsampling2D(indexes, ksize, stride, pad, outsize, cover_all).apply((x,))[0]
