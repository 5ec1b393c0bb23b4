"""Two-dimensional average pooling."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.pooling import pooling_2d
from minichainer.utils import conv


class AveragePooling2D(pooling_2d.Pooling2D):
    """Average pooling over a set of 2d planes (padded zeros count in the mean)."""

    def forward(self, x):
        self._in_shape = x[0].shape
        self._in_dtype = x[0].dtype
        col = conv.im2col_cpu(x[0], self.kh, self.kw, self.sy, self.sx, self.ph, self.pw)
        y = col.mean(axis=(2, 3))
        return y.astype(x[0].dtype, copy=False),

    def backward(self, indexes, gy):
        return AveragePooling2DGrad(self).apply(gy)


class AveragePooling2DGrad(function_node.FunctionNode):
    """Gradient of :func:`average_pooling_2d`."""

    def __init__(self, apool2d):
        self.kh = apool2d.kh
        self.kw = apool2d.kw
        self.sy = apool2d.sy
        self.sx = apool2d.sx
        self.ph = apool2d.ph
        self.pw = apool2d.pw
        self._in_shape = apool2d._in_shape
        self._in_dtype = apool2d._in_dtype
        self.apool2d = apool2d

    def forward(self, gy):
        xp = backend.get_array_module(*gy)
        h, w = self._in_shape[2:]
        gcol = xp.broadcast_to(gy[0][:, :, None, None],
                               gy[0].shape[:2] + (self.kh, self.kw) + gy[0].shape[2:])
        gx = conv.col2im_cpu(gcol, self.sy, self.sx, self.ph, self.pw, h, w)
        gx /= self.kh * self.kw
        return gx.astype(self._in_dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return AveragePooling2D(
            (self.kh, self.kw), (self.sy, self.sx), (self.ph, self.pw), False).apply(
                grad_outputs)


def average_pooling_2d(x, ksize, stride=None, pad=0):
    """Spatial average pooling (zero padding is included in the average, as Chainer).

    Args:
        x (Variable or ndarray): (n, c, h, w) input.
        ksize (int or pair of ints): window size.
        stride (int or pair of ints or None): stride; ``None`` means ``ksize``.
        pad (int or pair of ints): spatial zero padding.
    """
    return AveragePooling2D(ksize, stride, pad, False).apply((x,))[0]
