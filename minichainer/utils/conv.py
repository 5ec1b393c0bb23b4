"""Helpers for 2-D convolution and pooling: output sizes, `im2col` and `col2im`.

`im2col_cpu`/`col2im_cpu` keep Chainer's public layout `(n, c, kh, kw, out_h, out_w)`.
The underscored `_im2col_cn`/`_col2im_cn` variants use the channel-major layout
`(c, kh, kw, n, out_h, out_w)` so that a convolution is a single BLAS matmul over a
`(c * kh * kw, n * out_h * out_w)` matrix without a transposing copy; they are the
2-D case of `minichainer.utils.conv_nd`'s, which the convolutions use.
"""
from minichainer import backend


class ConvolutionShapeError(ValueError, RuntimeError, AssertionError):
    """Invalid convolution or patch arguments for the given input.

    A `ValueError`; also a `RuntimeError` and an `AssertionError` because Chainer
    raises those in these cases (a non-positive output size, a wrong-length argument),
    so code catching them keeps working.
    """


def get_conv_outsize(size, k, s, p, cover_all=False, d=1):
    """Output length of a convolution/pooling along one axis.

    Args:
        size (int): input length. k (int): kernel length. s (int): stride.
        p (int): padding. cover_all (bool): make the windows cover every input
        element (may add an output position). d (int): dilation.
    """
    dk = k + (k - 1) * (d - 1)
    if cover_all:
        return (size + p * 2 - dk + s - 1) // s + 1
    return (size + p * 2 - dk) // s + 1


def get_deconv_outsize(size, k, s, p, cover_all=False, d=1):
    """Output length of a deconvolution (transposed convolution) along one axis."""
    dk = (k - 1) * d + 1
    if cover_all:
        return s * (size - 1) + dk - s + 1 - 2 * p
    return s * (size - 1) + dk - 2 * p


def _check_outsize(out_h, out_w):
    if out_h <= 0:
        raise ConvolutionShapeError(
            'Height in the output should be positive, got {}.'.format(out_h))
    if out_w <= 0:
        raise ConvolutionShapeError(
            'Width in the output should be positive, got {}.'.format(out_w))


def _kernel_windows(kh, kw, sy, sx, dy, dx, out_h, out_w):
    # ``(j, i, rows, cols)`` for each kernel offset: the strided slices of the padded
    # image that kernel element (j, i) visits.
    for j in range(kh):
        y0 = j * dy
        rows = slice(y0, y0 + sy * out_h, sy)
        for i in range(kw):
            x0 = i * dx
            yield j, i, rows, slice(x0, x0 + sx * out_w, sx)


def im2col_cpu(img, kh, kw, sy, sx, ph, pw, pval=0, cover_all=False, dy=1, dx=1,
               out_h=None, out_w=None):
    """Extract sliding patches of `img` (n, c, h, w) into (n, c, kh, kw, out_h, out_w)."""
    n, c, h, w = img.shape
    if out_h is None:
        out_h = get_conv_outsize(h, kh, sy, ph, cover_all, dy)
    if out_w is None:
        out_w = get_conv_outsize(w, kw, sx, pw, cover_all, dx)
    _check_outsize(out_h, out_w)
    xp = backend.get_array_module(img)
    img = xp.pad(img, ((0, 0), (0, 0), (ph, ph + sy - 1), (pw, pw + sx - 1)),
                 mode='constant', constant_values=(pval,))
    col = xp.empty((n, c, kh, kw, out_h, out_w), dtype=img.dtype)
    for j, i, rows, cols in _kernel_windows(kh, kw, sy, sx, dy, dx, out_h, out_w):
        col[:, :, j, i, :, :] = img[:, :, rows, cols]
    return col


def col2im_cpu(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """Sum patches (n, c, kh, kw, out_h, out_w) back into an (n, c, h, w) image."""
    n, c, kh, kw, out_h, out_w = col.shape
    xp = backend.get_array_module(col)
    img = xp.zeros((n, c, h + 2 * ph + sy - 1, w + 2 * pw + sx - 1), dtype=col.dtype)
    for j, i, rows, cols in _kernel_windows(kh, kw, sy, sx, dy, dx, out_h, out_w):
        img[:, :, rows, cols] += col[:, :, j, i]
    return img[:, :, ph:h + ph, pw:w + pw]


def im2col_gpu(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1,
               out_h=None, out_w=None):
    """`im2col_cpu` with Chainer's GPU signature (the array code is module-agnostic)."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, cover_all=cover_all, dy=dy, dx=dx,
                      out_h=out_h, out_w=out_w)


def im2col(img, kh, kw, sy, sx, ph, pw, cover_all=False, dy=1, dx=1,
           out_h=None, out_w=None):
    """`im2col` with Chainer's signature (no `pval`; see `im2col_cpu` for it)."""
    return im2col_cpu(img, kh, kw, sy, sx, ph, pw, cover_all=cover_all,
                      dy=dy, dx=dx, out_h=out_h, out_w=out_w)


col2im_gpu = col2im_cpu


def col2im(col, sy, sx, ph, pw, h, w, dy=1, dx=1):
    """`col2im` with Chainer's signature."""
    return col2im_cpu(col, sy, sx, ph, pw, h, w, dy=dy, dx=dx)


def _im2col_cn(img, kh, kw, sy, sx, ph, pw, dy, dx, out_h, out_w, pval=0):
    """2-D `conv_nd.im2col_cn`: contiguous patches (c, kh, kw, n, out_h, out_w)."""
    return conv_nd.im2col_cn(img, (kh, kw), (sy, sx), (ph, pw), (dy, dx), (out_h, out_w),
                              pval)


def _col2im_cn(col, sy, sx, ph, pw, h, w, dy, dx):
    """2-D `conv_nd.col2im_cn`: sum (c, kh, kw, n, out_h, out_w) into (n, c, h, w)."""
    return conv_nd.col2im_cn(col, (sy, sx), (ph, pw), (h, w), (dy, dx))


# Imported last: conv_nd imports ConvolutionShapeError and get_conv_outsize from here.
from minichainer.utils import conv_nd  # noqa: E402
