"""N-dimensional average pooling."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.pooling import _pooling_engine as engine
from minichainer.functions.pooling import pooling_nd


class AveragePoolingND(pooling_nd.PoolingND):
    """Average pooling over a set of N-dimensional planes.

    `pad_value=0` counts padded zeros in the average; `None` averages only the
    real elements of each window.
    """

    def __init__(self, ndim, ksize, stride=None, pad=0, cover_all=False, pad_value=0):
        if not (pad_value is None or pad_value == 0):
            raise ValueError('pad_value must be either 0 or None, not {}.'.format(
                pad_value))
        if cover_all is True:
            raise ValueError('`cover_all` mode is not supported yet.')
        super().__init__(ndim, ksize, stride=stride, pad=pad, cover_all=cover_all)
        self.pad_value = pad_value

    def forward(self, x):
        x, = x
        xp = backend.get_array_module(x)
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        geo = engine.Geometry('average_pooling_nd', x.shape, self.ksize, self.stride,
                              self.pad, self.cover_all)
        self._geometry = geo
        self.width = None
        if self.pad_value is None:
            self.width = engine.pooling_width(xp, geo, x.dtype)
        return engine.average_forward(geo, x, self.width),

    def backward(self, indexes, gy):
        return AveragePoolingNDGrad(self).apply(gy)


class AveragePoolingNDGrad(function_node.FunctionNode):
    """Gradient of
    [`average_pooling_nd`][minichainer.functions.pooling.average_pooling_nd.average_pooling_nd]."""

    def __init__(self, apoolnd):
        self.apoolnd = apoolnd
        self._geometry = apoolnd._geometry
        self.width = apoolnd.width
        self._in_dtype = apoolnd._in_dtype

    def forward(self, gy):
        return engine.average_backward(self._geometry, gy[0], self._in_dtype,
                                       self.width),

    def backward(self, indexes, grad_outputs):
        a = self.apoolnd
        return AveragePoolingND(a.ndim, a.ksize, a.stride, a.pad, a.cover_all,
                                a.pad_value).apply(grad_outputs)


def average_pooling_nd(x, ksize, stride=None, pad=0, pad_value=0):
    """N-dimensionally spatial average pooling.

    Args:
        pad_value (0 or None): 0 includes padded zeros in the average; None excludes
            them.
    """
    ndim = len(x.shape[2:])
    return AveragePoolingND(ndim, ksize, stride=stride, pad=pad,
                            pad_value=pad_value).apply((x,))[0]


def average_pooling_1d(x, ksize, stride=None, pad=0, pad_value=0):
    """1-D average pooling.

    Raises:
        ValueError: if `x` is not 3-dimensional.
    """
    pooling_nd.check_spatial_ndim(x, 1)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)


def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0):
    """3-D average pooling.

    Raises:
        ValueError: if `x` is not 5-dimensional.
    """
    pooling_nd.check_spatial_ndim(x, 3)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)
