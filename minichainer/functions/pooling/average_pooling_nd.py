"""N-dimensional average pooling."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.pooling import pooling_nd
from minichainer.utils import conv_nd


class AveragePoolingND(pooling_nd._PoolingND):
    """Average pooling over a set of N-dimensional planes.

    ``pad_value=0`` counts padded zeros in the average; ``None`` averages only the
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

    def _get_pooling_width(self, xp, dims, dtype):
        ones = xp.ones((1, 1) + tuple(dims), dtype=dtype)
        col = conv_nd.im2col_nd_cpu(ones, self.ksize, self.stride, self.pad,
                                    cover_all=self.cover_all)
        axes = tuple(range(2, 2 + self.ndim))
        return col.sum(axis=axes)[0, 0]

    def forward(self, x):
        xp = backend.get_array_module(*x)
        self._in_shape = x[0].shape
        self._in_dtype = x[0].dtype
        col = conv_nd.im2col_nd_cpu(x[0], self.ksize, self.stride, self.pad,
                                    cover_all=self.cover_all)
        axes = tuple(range(2, 2 + self.ndim))
        if self.pad_value is None:
            self.width = self._get_pooling_width(xp, x[0].shape[2:], x[0].dtype)
            y = col.sum(axis=axes) / self.width
        else:
            self.width = None
            y = col.mean(axis=axes)
        return y.astype(x[0].dtype, copy=False),

    def backward(self, indexes, gy):
        return AveragePoolingNDGrad(self).apply(gy)


class AveragePoolingNDGrad(function_node.FunctionNode):
    """Gradient of :func:`average_pooling_nd`."""

    def __init__(self, apoolnd):
        self.ndim = apoolnd.ndim
        self.ksize = apoolnd.ksize
        self.stride = apoolnd.stride
        self.pad = apoolnd.pad
        self.cover_all = apoolnd.cover_all
        self.pad_value = apoolnd.pad_value
        self.width = apoolnd.width
        self._in_shape = apoolnd._in_shape
        self._in_dtype = apoolnd._in_dtype
        self.apoolnd = apoolnd

    def forward(self, gy):
        xp = backend.get_array_module(*gy)
        g = gy[0]
        if self.width is not None:
            g = g / self.width
        n, c = g.shape[:2]
        idx = (slice(None), slice(None)) + (None,) * self.ndim
        gcol = xp.broadcast_to(g[idx], (n, c) + tuple(self.ksize) + g.shape[2:])
        gx = conv_nd.col2im_nd_cpu(gcol, self.stride, self.pad, self._in_shape[2:])
        if self.width is None:
            # A fixed divisor is applied after summing the windows, as Chainer does, so
            # float16 gradients round exactly like average_pooling_2d's.
            kk = 1
            for k in self.ksize:
                kk *= k
            gx = gx / gx.dtype.type(kk)
        return gx.astype(self._in_dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        return AveragePoolingND(self.ndim, self.ksize, self.stride, self.pad,
                                self.cover_all, self.pad_value).apply(grad_outputs)


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
        ValueError: if ``x`` is not 3-dimensional.
    """
    pooling_nd._check_spatial_ndim(x, 1)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)


def average_pooling_3d(x, ksize, stride=None, pad=0, pad_value=0):
    """3-D average pooling.

    Raises:
        ValueError: if ``x`` is not 5-dimensional.
    """
    pooling_nd._check_spatial_ndim(x, 3)
    return average_pooling_nd(x, ksize, stride, pad, pad_value)
