"""N-dimensional max pooling."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.pooling import pooling_nd
from minichainer.utils import conv_nd


def _prod(xs):
    out = 1
    for v in xs:
        out *= v
    return out


def _max_pool_windows(node, x):
    """The pooling windows of ``x`` padded with -inf: shape (n, c, prod(ksize)) + outs."""
    col = conv_nd.im2col_nd_cpu(x, node.ksize, node.stride, node.pad,
                                cover_all=node.cover_all, pval=-float('inf'))
    n, c = col.shape[:2]
    outs = col.shape[2 + node.ndim:]
    return col.reshape((n, c, -1) + outs)


class MaxPoolingND(pooling_nd._PoolingND):
    """Max pooling over a set of N-dimensional planes."""

    def forward(self, x):
        self._in_shape = x[0].shape
        self._in_dtype = x[0].dtype
        col = _max_pool_windows(self, x[0])
        self.indexes = col.argmax(axis=2)
        return col.max(axis=2),

    def backward(self, indexes, gy):
        return MaxPoolingNDGrad(self).apply(gy)


class MaxPoolingNDGrad(function_node.FunctionNode):
    """Gradient of :func:`max_pooling_nd`."""

    def __init__(self, mpoolnd):
        self.ndim = mpoolnd.ndim
        self.ksize = mpoolnd.ksize
        self.stride = mpoolnd.stride
        self.pad = mpoolnd.pad
        self.cover_all = mpoolnd.cover_all
        self.indexes = mpoolnd.indexes
        self._in_shape = mpoolnd._in_shape
        self._in_dtype = mpoolnd._in_dtype
        self.mpoolnd = mpoolnd

    def forward(self, gy):
        xp = backend.get_array_module(*gy)
        g = gy[0]
        n, c = g.shape[:2]
        outs = g.shape[2:]
        kk = _prod(self.ksize)
        gcol = xp.zeros((g.size * kk,), dtype=self._in_dtype)
        idx = self.indexes.ravel() + xp.arange(0, g.size * kk, kk)
        gcol[idx] = g.ravel()
        gcol = gcol.reshape((n, c) + tuple(outs) + tuple(self.ksize))
        nd = self.ndim
        axes = (0, 1) + tuple(range(2 + nd, 2 + 2 * nd)) + tuple(range(2, 2 + nd))
        gcol = gcol.transpose(axes)
        gx = conv_nd.col2im_nd_cpu(gcol, self.stride, self.pad, self._in_shape[2:])
        return gx,

    def backward(self, indexes, ggx):
        return MaxPoolingNDWithIndexes(self.mpoolnd).apply(ggx)


class MaxPoolingNDWithIndexes(function_node.FunctionNode):
    """Picks its input at the argmax positions of a max pooling."""

    def __init__(self, mpoolnd):
        self.ndim = mpoolnd.ndim
        self.ksize = mpoolnd.ksize
        self.stride = mpoolnd.stride
        self.pad = mpoolnd.pad
        self.cover_all = mpoolnd.cover_all
        self.indexes = mpoolnd.indexes
        self.mpoolnd = mpoolnd

    def forward(self, x):
        xp = backend.get_array_module(*x)
        col = _max_pool_windows(self, x[0])
        n, c = col.shape[:2]
        outs = col.shape[3:]
        col = xp.moveaxis(col, 2, -1).reshape(-1, col.shape[2])
        idx = self.indexes.ravel()
        return col[xp.arange(len(idx)), idx].reshape((n, c) + outs),

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self.mpoolnd).apply(grad_outputs)


def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """N-dimensionally spatial max pooling (see :func:`max_pooling_2d`)."""
    ndim = len(x.shape[2:])
    func = MaxPoolingND(ndim, ksize, stride, pad, cover_all, return_indices)
    y = func.apply((x,))[0]
    if return_indices:
        return y, func.indexes
    return y


def max_pooling_1d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """1-D max pooling.

    Raises:
        ValueError: if ``x`` is not 3-dimensional.
    """
    pooling_nd._check_spatial_ndim(x, 1)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_3d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """3-D max pooling.

    Raises:
        ValueError: if ``x`` is not 5-dimensional.
    """
    pooling_nd._check_spatial_ndim(x, 3)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)
