"""N-dimensional max pooling (also the implementation behind `max_pooling_2d`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.pooling import _pooling_engine as engine
from minichainer.functions.pooling import pooling_nd


class MaxPoolingForward(object):
    """Forward shared by `MaxPoolingND` and `MaxPooling2D`.

    Keeps the window geometry and the argmax code of every window (one byte per
    output for windows of up to 256 elements); `indexes` gives Chainer's intp
    argmax array.

    An input in (c, n, d...) memory order (what a convolution, batch normalization
    and ReLU hand on) is pooled as its (c, n, d...) transpose, so the output, the
    codes and the gradient keep that order (`_swapped`): the gather reads contiguous
    planes and the backward chain (ReLU, batch normalization, the convolution's
    gradients) sees one layout throughout. The values are the same either way.
    """

    _code = None
    _geometry = None
    _swapped = False

    def forward(self, x):
        x, = x
        self._in_shape = x.shape
        self._in_dtype = x.dtype
        geo = engine.Geometry(self._func_name, x.shape, self.ksize, self.stride, self.pad,
                              self.cover_all)
        self._swapped = engine.is_channel_major(x)
        if self._swapped:
            geo = geo.batch_channel_swapped()
            x = x.swapaxes(0, 1)
        self._geometry = geo
        y, self._code = engine.max_forward(geo, x)
        return (y.swapaxes(0, 1) if self._swapped else y),

    @property
    def indexes(self):
        """Argmax within each window, shape of the output (`None` before forward)."""
        if self._code is None:
            return None
        indexes = engine.codes_to_indexes(self._geometry, self._code)
        if self._swapped:
            xp = backend.get_array_module(indexes)
            indexes = xp.ascontiguousarray(indexes.swapaxes(0, 1))
        return indexes

    @indexes.setter
    def indexes(self, value):
        if self._geometry is None:
            raise RuntimeError('{}: indexes can only be set after forward'.format(
                self._func_name))
        if self._swapped:
            value = backend.get_array_module(value).asarray(value).swapaxes(0, 1)
        self._code = engine.indexes_to_codes(self._geometry, value)

    def backward(self, indexes, gy):
        return MaxPoolingNDGrad(self).apply(gy)


class MaxPoolingND(MaxPoolingForward, pooling_nd.PoolingND):
    """Max pooling over a set of N-dimensional planes."""

    _func_name = 'max_pooling_nd'


class MaxPoolingNDGrad(function_node.FunctionNode):
    """Gradient of max pooling: routes gy to the first maximum of each window."""

    def __init__(self, mpool):
        self.mpool = mpool
        self._geometry = mpool._geometry
        self._code = mpool._code
        self._in_dtype = mpool._in_dtype

    # Chainer's attribute names on the gradient node
    @property
    def indexes(self):
        return self.mpool.indexes

    def forward(self, gy):
        gy, = gy
        if self.mpool._swapped:
            return engine.max_backward(self._geometry, self._code, gy.swapaxes(0, 1),
                                       self._in_dtype).swapaxes(0, 1),
        return engine.max_backward(self._geometry, self._code, gy, self._in_dtype),

    def backward(self, indexes, ggx):
        return MaxPoolingNDWithIndexes(self.mpool).apply(ggx)


class MaxPoolingNDWithIndexes(function_node.FunctionNode):
    """Picks its input at the argmax positions of a max pooling."""

    def __init__(self, mpool):
        self.mpool = mpool
        self._geometry = mpool._geometry
        self._code = mpool._code

    def forward(self, x):
        x, = x
        if self.mpool._swapped:
            return engine.max_pick(self._geometry, self._code,
                                   x.swapaxes(0, 1)).swapaxes(0, 1),
        return engine.max_pick(self._geometry, self._code, x),

    def backward(self, indexes, grad_outputs):
        return MaxPoolingNDGrad(self.mpool).apply(grad_outputs)


def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """N-dimensionally spatial max pooling (see
    [`max_pooling_2d`][minichainer.functions.pooling.max_pooling_2d.max_pooling_2d]).

    Raises:
        ValueError: a non-positive `ksize`/`stride`, a negative `pad` or a
            window larger than the padded input.
    """
    ndim = len(x.shape[2:])
    func = MaxPoolingND(ndim, ksize, stride, pad, cover_all, return_indices)
    y = func.apply((x,))[0]
    if return_indices:
        return y, func.indexes
    return y


def max_pooling_1d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """1-D max pooling.

    Raises:
        ValueError: if `x` is not 3-dimensional.
    """
    pooling_nd.check_spatial_ndim(x, 1)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_3d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """3-D max pooling.

    Raises:
        ValueError: if `x` is not 5-dimensional.
    """
    pooling_nd.check_spatial_ndim(x, 3)
    return max_pooling_nd(x, ksize, stride, pad, cover_all, return_indices)
