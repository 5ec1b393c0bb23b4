"""Two-dimensional max pooling."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.pooling import pooling_2d
from minichainer.utils import conv


def _max_pool_windows(node, x):
    """The pooling windows of ``x`` padded with -inf: shape (n, c, kh * kw, out_h, out_w)."""
    col = conv.im2col_cpu(
        x, node.kh, node.kw, node.sy, node.sx, node.ph, node.pw,
        pval=-float('inf'), cover_all=node.cover_all)
    n, c, kh, kw, out_h, out_w = col.shape
    return col.reshape(n, c, kh * kw, out_h, out_w)


class MaxPooling2D(pooling_2d.Pooling2D):
    """Max pooling over a set of 2d planes; ``indexes`` holds the argmax in each window."""

    def forward(self, x):
        self._in_shape = x[0].shape
        self._in_dtype = x[0].dtype
        col = _max_pool_windows(self, x[0])
        self.indexes = col.argmax(axis=2)
        y = col.max(axis=2)
        return y,

    def backward(self, indexes, gy):
        return MaxPooling2DGrad(self).apply(gy)


class MaxPooling2DGrad(function_node.FunctionNode):
    """Gradient of :func:`max_pooling_2d`: routes gy to the argmax positions."""

    def __init__(self, mpool2d):
        self.kh = mpool2d.kh
        self.kw = mpool2d.kw
        self.sy = mpool2d.sy
        self.sx = mpool2d.sx
        self.ph = mpool2d.ph
        self.pw = mpool2d.pw
        self.cover_all = mpool2d.cover_all
        self.indexes = mpool2d.indexes
        self._in_shape = mpool2d._in_shape
        self._in_dtype = mpool2d._in_dtype
        self.mpool2d = mpool2d

    def forward(self, gy):
        xp = backend.get_array_module(*gy)
        n, c, out_h, out_w = gy[0].shape
        h, w = self._in_shape[2:]
        kh, kw = self.kh, self.kw
        gcol = xp.zeros((n * c * out_h * out_w * kh * kw), dtype=self._in_dtype)
        indexes = self.indexes.flatten()
        indexes += xp.arange(0, indexes.size * kh * kw, kh * kw)
        gcol[indexes] = gy[0].ravel()
        gcol = gcol.reshape(n, c, out_h, out_w, kh, kw)
        gcol = gcol.transpose(0, 1, 4, 5, 2, 3)
        gx = conv.col2im_cpu(gcol, self.sy, self.sx, self.ph, self.pw, h, w)
        return gx,

    def backward(self, indexes, ggx):
        return MaxPooling2DWithIndexes(self.mpool2d).apply(ggx)


class MaxPooling2DWithIndexes(function_node.FunctionNode):
    """Picks the elements of its input at the argmax positions of a max pooling."""

    def __init__(self, mpool2d):
        self.kh = mpool2d.kh
        self.kw = mpool2d.kw
        self.sy = mpool2d.sy
        self.sx = mpool2d.sx
        self.ph = mpool2d.ph
        self.pw = mpool2d.pw
        self.cover_all = mpool2d.cover_all
        self.indexes = mpool2d.indexes
        self.mpool2d = mpool2d

    def forward(self, x):
        xp = backend.get_array_module(*x)
        col = _max_pool_windows(self, x[0])
        n, c, kk, out_h, out_w = col.shape
        col = col.transpose(0, 1, 3, 4, 2).reshape(-1, kk)
        indexes = self.indexes.ravel()
        col = col[xp.arange(len(indexes)), indexes]
        return col.reshape(n, c, out_h, out_w),

    def backward(self, indexes, grad_outputs):
        return MaxPooling2DGrad(self.mpool2d).apply(grad_outputs)


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """Spatial max pooling.

    Args:
        x (Variable or ndarray): (n, c, h, w) input.
        ksize (int or pair of ints): window size.
        stride (int or pair of ints or None): stride; ``None`` means ``ksize``.
        pad (int or pair of ints): spatial padding (with -inf).
        cover_all (bool): make the windows cover every input pixel (may add one output
            row/column).
        return_indices (bool): also return the argmax indices within each window (an
            ndarray for :func:`upsampling_2d`).

    Returns:
        Variable, or (Variable, ndarray) when ``return_indices`` is True.
    """
    func = MaxPooling2D(ksize, stride, pad, cover_all, return_indices)
    out = func.apply((x,))[0]
    if return_indices:
        return out, func.indexes
    return out
