"""Two-dimensional average pooling (the N-D engine with two spatial axes)."""
from minichainer import function_node
from minichainer.functions.pooling import _pooling_engine as engine
from minichainer.functions.pooling import pooling_2d


class AveragePooling2D(pooling_2d.Pooling2D):
    """Average pooling over a set of 2d planes (padded zeros count in the mean)."""

    def forward(self, x):
        x, = x
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        self._geometry = engine.Geometry('average_pooling_2d', x.shape, self.ksize,
                                         self.stride, self.pad, False)
        return engine.average_forward(self._geometry, x),

    def backward(self, indexes, gy):
        return AveragePooling2DGrad(self).apply(gy)


class AveragePooling2DGrad(function_node.FunctionNode):
    """Gradient of
    [`average_pooling_2d`][minichainer.functions.pooling.average_pooling_2d.average_pooling_2d]."""

    def __init__(self, apool2d):
        self.apool2d = apool2d
        self._geometry = apool2d._geometry
        self._in_dtype = apool2d._in_dtype

    def forward(self, gy):
        return engine.average_backward(self._geometry, gy[0], self._in_dtype),

    def backward(self, indexes, grad_outputs):
        a = self.apool2d
        return AveragePooling2D(a.ksize, a.stride, a.pad, False).apply(grad_outputs)


def average_pooling_2d(x, ksize, stride=None, pad=0):
    """Spatial average pooling (zero padding is included in the average, as Chainer).

    Args:
        x (Variable or ndarray): (n, c, h, w) input.
        ksize (int or pair of ints): window size.
        stride (int or pair of ints or None): stride; `None` means `ksize`.
        pad (int or pair of ints): spatial zero padding.

    Raises:
        ValueError: a non-positive `ksize`/`stride`, a negative `pad` or a
            window larger than the padded input.
    """
    return AveragePooling2D(ksize, stride, pad, False).apply((x,))[0]
