"""Two-dimensional local (unshared-weight) convolution."""
from minichainer.utils import type_check
from minichainer.functions.array.cast import cast
from minichainer.functions.array.im2col import im2col
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.transpose import transpose
from minichainer.functions.math.matmul import matmul


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


def _check(x, W, b):
    def fail(expect, actual):
        raise type_check.InvalidType(expect, actual)
    if x.dtype.kind != 'f' or W.dtype.kind != 'f':
        fail("x.dtype.kind == 'f' and W.dtype.kind == 'f'",
             'x.dtype = {}, W.dtype = {}'.format(x.dtype, W.dtype))
    if x.ndim != 4 or W.ndim != 6:
        fail('x.ndim == 4 and W.ndim == 6', 'x.ndim = {}, W.ndim = {}'.format(x.ndim, W.ndim))
    if x.shape[1] != W.shape[3]:
        fail('x.shape[1] == W.shape[3]', '{} != {}'.format(x.shape[1], W.shape[3]))
    if b is not None and (b.dtype != x.dtype or b.shape != W.shape[:3]):
        fail('b.dtype == x.dtype and b.shape == W.shape[:3]',
             'b: {} {}, x.dtype = {}, W.shape[:3] = {}'.format(
                 b.dtype, b.shape, x.dtype, W.shape[:3]))


def local_convolution_2d(x, W, b=None, stride=1):
    """Locally-connected 2-D convolution: a separate filter for every output position.

    Args:
        x (Variable or ndarray): (n, c_I, h, w) input.
        W (Variable or ndarray): (c_O, h_O, w_O, c_I, k_H, k_W) filters, where
            `h_O = (h - k_H) // s_Y + 1` and `w_O = (w - k_W) // s_X + 1` (no padding).
        b (Variable or ndarray or None): (c_O, h_O, w_O) bias.
        stride (int or pair of ints): stride.

    Returns:
        Variable: (n, c_O, h_O, w_O) output.

    Raises:
        InvalidType: on mismatching dtypes or shapes.

    Built from differentiable functions (im2col and a batched matmul), so higher-order
    gradients work; Chainer uses a dedicated FunctionNode.
    """
    _check(x, W, b)
    c_o, h_o, w_o, c_i, kh, kw = W.shape
    sy, sx = _pair(stride)
    n = x.shape[0]
    col = im2col(x, (kh, kw), (sy, sx))  # (n, c_I * kh * kw, oh, ow)
    if col.shape[2:] != (h_o, w_o):
        raise type_check.InvalidType(
            'W.shape[1:3] == output size of the convolution',
            '{} != {}'.format(W.shape[1:3], col.shape[2:]))
    k = c_i * kh * kw
    p = h_o * w_o
    col = transpose(reshape(col, (n, k, p)), (2, 0, 1))  # (p, n, k)
    w = transpose(reshape(W, (c_o, p, k)), (1, 2, 0))  # (p, k, c_O)
    y = matmul(col, w)  # (p, n, c_O)
    if y.dtype != x.dtype:  # W wider than x: the output keeps x's dtype, as in Chainer
        y = cast(y, x.dtype)
    y = reshape(transpose(y, (1, 2, 0)), (n, c_o, h_o, w_o))
    if b is not None:
        y = y + reshape(b, (1, c_o, h_o, w_o))
    return y


class LocalConvolution2DFunction(object):
    """Chainer's `LocalConvolution2DFunction(stride)` for code that calls `.apply`.

    `LocalConvolution2DFunction(stride).apply((x, W[, b]))` returns the 1-tuple
    `(local_convolution_2d(x, W, b, stride),)`.  The computation is the composite of
    differentiable functions that
    [`local_convolution_2d`][minichainer.functions.connection.local_convolution_2d.local_convolution_2d]
    builds, so the output's `creator` is the last of those nodes rather than this object.
    """

    def __init__(self, stride=1):
        self.sy, self.sx = _pair(stride)

    def apply(self, inputs):
        inputs = tuple(inputs)
        if not 2 <= len(inputs) <= 3:
            raise type_check.InvalidType(
                '2 <= in_types.size() <= 3', 'in_types.size() = {}'.format(len(inputs)))
        x, W = inputs[:2]
        b = inputs[2] if len(inputs) == 3 else None
        return local_convolution_2d(x, W, b, (self.sy, self.sx)),
