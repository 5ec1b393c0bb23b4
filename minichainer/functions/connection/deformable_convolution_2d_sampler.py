"""Two-dimensional deformable convolution with given sampling offsets."""
import numpy

from minichainer import backend
from minichainer import variable
from minichainer.functions.array.get_item import get_item
from minichainer.functions.array.pad import pad as pad_array
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.stack import stack
from minichainer.functions.array.transpose import transpose
from minichainer.functions.connection.linear import linear
from minichainer.functions.math.sum import sum as sum_axis


def _pair(x):
    if hasattr(x, '__getitem__'):
        return x
    return x, x


def _check_inputs(x, offset, W, b):
    name = 'deformable_convolution_2d_sampler'
    for arg, a, ndim in (('x', x, 4), ('offset', offset, 4), ('W', W, 4)):
        if a.ndim != ndim:
            raise ValueError('{}: {} must be {}-D, got shape {}'.format(
                name, arg, ndim, a.shape))
    for arg, a in (('x', x), ('offset', offset), ('W', W)):
        if a.dtype.kind != 'f':
            raise ValueError('{}: {} must be a float array, got dtype {}'.format(
                name, arg, a.dtype))
    kh, kw = W.shape[2:]
    if offset.shape[1] != 2 * kh * kw:
        raise ValueError(
            'The shape of the offset does not match the kernel size: {}: offset.shape[1] '
            'must be 2 * kh * kw = {}, got offset shape {}'.format(
                name, 2 * kh * kw, offset.shape))
    if offset.shape[0] != x.shape[0]:
        raise ValueError('{}: offset.shape[0] must equal the batch size {}, got {}'.format(
            name, x.shape[0], offset.shape[0]))
    if offset.dtype != x.dtype:
        raise ValueError('{}: offset.dtype must be x.dtype ({}), got {}'.format(
            name, x.dtype, offset.dtype))
    if W.shape[1] != x.shape[1]:
        raise ValueError('{}: W.shape[1] must equal the input channels {}, got W shape {}'
                         .format(name, x.shape[1], W.shape))
    if b is not None and (b.ndim != 1 or b.shape[0] != W.shape[0]):
        raise ValueError('{}: b must have shape ({},), got {}'.format(
            name, W.shape[0], b.shape))


def _bilinear_weights(coord, size):
    """Split sampling coordinates into the lower cell and the interpolation weights.

    `coord` (Variable) are positions in an image of `size` pixels along the axis whose
    border has one extra pixel of zeros on each side (so valid positions lie in
    `[0, size - 1]`). Positions are clipped to that range, where their gradient
    becomes zero.

    Returns:
        tuple: `(lower, (w_lower, w_upper))`; `lower` an int array of cell
        indices in `[0, size - 2]` and the weights Variables summing to one.
    """
    xp = backend.get_array_module(coord.array)
    c = coord.array
    inside = ((c > 0) & (c < size - 1)).astype(c.dtype)
    clipped = xp.clip(c, 0, size - 1)
    lower = xp.minimum(xp.floor(clipped), size - 2)
    # frac equals ``clipped - lower``, with gradient 1 inside the image and 0 where clipped
    frac = coord * inside + (clipped - c * inside - lower)
    return lower.astype(numpy.intp), (1 - frac, frac)


def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1, pad=0):
    """2-D deformable convolution
    ([Deformable Convolutional Networks](https://arxiv.org/abs/1703.06211)) with given offsets.

    Filter tap `(i, j)` of output position `(p, q)` reads `x` (zero-padded by
    `pad`) at `(p * s_Y + i + dy, q * s_X + j + dx)`, the displacement `(dy, dx)`
    being read from `offset`; fractional positions are interpolated bilinearly,
    positions outside the padded image see zeros.

    Args:
        x (Variable or ndarray): input of shape (n, c_I, h, w).
        offset (Variable or ndarray): offsets of shape (n, 2 * kh * kw, h_O, w_O), of
            `x`'s dtype: channels `[0, kh * kw)` are the horizontal displacements of
            the taps in row-major order, channels `[kh * kw, 2 * kh * kw)` the
            vertical ones. Its spatial size sets the output size, normally
            `h_O = (h + 2 p_H - kh) // s_Y + 1` (likewise `w_O`).
        W (Variable or ndarray): filters of shape (c_O, c_I, kh, kw).
        b (Variable or ndarray or None): bias of shape (c_O,).
        stride (int or pair of ints): stride `(s_Y, s_X)`.
        pad (int or pair of ints): zero padding `(p_H, p_W)`.

    Returns:
        Variable: output of shape (n, c_O, h_O, w_O).

    Raises:
        ValueError: on arrays of the wrong dimensionality, dtype or shape (e.g. an
            `offset` whose channel count is not `2 * kh * kw`).

    It is built from differentiable functions (a gather of the four neighbours, the
    bilinear weights and a linear map), so gradients of any order flow to `x`,
    `offset`, `W` and `b`; at positions clipped to the image border the
    gradient with respect to `offset` is zero.
    """

    x = variable.as_variable(x)
    offset = variable.as_variable(offset)
    _check_inputs(x, offset, W, b)
    sy, sx = _pair(stride)
    ph, pw = _pair(pad)
    n, c, h, w = x.shape
    out_c, _, kh, kw = W.shape
    _, _, out_h, out_w = offset.shape
    n_taps = kh * kw
    xp = backend.get_array_module(x.array)
    dtype = x.dtype

    # Sampling positions in x padded by ``pad`` and then by one more ring of zeros.
    hq, wq = h + 2 * ph + 2, w + 2 * pw + 2
    tap = xp.arange(n_taps)
    base_x = (tap % kw + 1)[:, None, None] + sx * xp.arange(out_w)[None, None, :]
    base_y = (tap // kw + 1)[:, None, None] + sy * xp.arange(out_h)[None, :, None]
    u = offset[:, :n_taps] + base_x.astype(dtype)
    v = offset[:, n_taps:] + base_y.astype(dtype)
    u0, wu = _bilinear_weights(u, wq)
    v0, wv = _bilinear_weights(v, hq)
    # Weights of the neighbours (v0, u0), (v0, u0 + 1), (v0 + 1, u0), (v0 + 1, u0 + 1).
    weights = reshape(stack(wv, axis=1)[:, :, None] * stack(wu, axis=1)[:, None],
                      (n, 4, n_taps, out_h * out_w, 1))

    corner = (xp.arange(n) * (hq * wq))[:, None, None, None] + v0 * wq + u0
    index = xp.stack((corner, corner + 1, corner + wq, corner + wq + 1), axis=1)
    x_pad = pad_array(x, ((0, 0), (0, 0), (ph + 1, ph + 1), (pw + 1, pw + 1)), 'constant')
    pixels = reshape(transpose(x_pad, (0, 2, 3, 1)), (n * hq * wq, c))
    neighbours = reshape(get_item(pixels, index.reshape(-1)),
                         (n, 4, n_taps, out_h * out_w, c))
    sampled = sum_axis(weights * neighbours, axis=1)  # (n, kh * kw, h_O * w_O, c_I)

    col = reshape(transpose(sampled, (0, 2, 3, 1)), (n * out_h * out_w, c * n_taps))
    y = linear(col, reshape(W, (out_c, c * n_taps)), b)
    return transpose(reshape(y, (n, out_h, out_w, out_c)), (0, 3, 1, 2))
