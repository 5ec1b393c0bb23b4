"""N-dimensional `im2col`/`col2im` (Chainer's `chainer.utils.conv_nd`) and the
channel-major patch helpers of the convolution engine.

Patches are a strided view of the (padded) input, copied at most once; `col2im` adds
one strided slice per kernel offset, clipped to the image (no padded buffer). On a
same-size grid both work on shifted rows of the flattened grid instead. The code
takes its array module from its inputs, so the `*_gpu` names are the same functions.
"""
import itertools

from minichainer import backend
from minichainer.utils.conv import ConvolutionShapeError
from minichainer.utils.conv import get_conv_outsize  # noqa: F401  (Chainer's name here)


def as_tuple(x, n):
    """Return `x` as an `n`-tuple (a scalar is repeated).

    Raises:
        ConvolutionShapeError: (a `ValueError` and, as in Chainer, an
            `AssertionError`) if `x` is a sequence whose length is not `n`.
    """
    if hasattr(x, '__getitem__'):
        if len(x) != n:
            raise ConvolutionShapeError(
                'expected an int or a sequence of length {}, got {!r}'.format(n, x))
        return tuple(x)
    return (x,) * n


def _out_dims(img_shape, ksize, stride, pad, cover_all, dilate):
    outs = tuple(get_conv_outsize(d, k, s, p, cover_all, di)
                 for d, k, s, p, di in zip(img_shape[2:], ksize, stride, pad, dilate))
    if any(o <= 0 for o in outs):
        raise ConvolutionShapeError(
            'Output sizes should be positive: got {} for input shape {}, kernel {}, '
            'stride {}, pad {}, dilate {}'.format(outs, tuple(img_shape), ksize, stride,
                                                  pad, dilate))
    return outs


def _nd_args(ndim, *args):
    """Every argument as an `ndim`-tuple (ints repeated); lengths must match."""
    return tuple(as_tuple(v, ndim) for v in args)


def im2col_nd_cpu(img, ksize, stride, pad, pval=0, cover_all=False, dilate=1):
    """Patches of `img` (n, c, d_1..d_N) as (n, c, k_1..k_N, out_1..out_N).

    Element `[n, c, k..., o...]` is the padded image at `o_i * s_i + k_i * dilate_i`
    (`pval` outside the image), as Chainer's.

    Raises:
        ConvolutionShapeError: an argument of the wrong length or a non-positive
            output size (a `ValueError`; also an `AssertionError`, as in Chainer).
    """
    ndim = img.ndim - 2
    ksize, stride, pad, dilate = _nd_args(ndim, ksize, stride, pad, dilate)
    outs = _out_dims(img.shape, ksize, stride, pad, cover_all, dilate)
    src = _padded_source(img, ksize, stride, pad, dilate, outs, pval)
    view = patches_view(src, ksize, stride, dilate, outs)
    # (c, k..., n, o...) -> (n, c, k..., o...), one copy
    order = (ndim + 1, 0) + tuple(range(1, ndim + 1)) + tuple(range(ndim + 2, 2 * ndim + 2))
    return view.transpose(order).copy()


im2col_nd_gpu = im2col_nd_cpu


def col2im_nd_cpu(col, stride, pad, dims, dilate=1):
    """Sum patches (n, c, k_1..k_N, out_1..out_N) into an (n, c, d_1..d_N) image.

    Raises:
        ConvolutionShapeError: an argument of the wrong length.
    """
    ndim = len(dims)
    stride, pad, dilate = _nd_args(ndim, stride, pad, dilate)
    if col.ndim != 2 + 2 * ndim:
        raise ConvolutionShapeError(
            'col2im_nd: col must have {} axes for {} dims, got shape {}'.format(
                2 + 2 * ndim, ndim, col.shape))
    order = (1,) + tuple(range(2, ndim + 2)) + (0,) + tuple(range(ndim + 2, 2 * ndim + 2))
    col_cn = col.transpose(order)
    xp = backend.get_array_module(col)
    img = xp.zeros((col.shape[1], col.shape[0]) + tuple(dims), dtype=col.dtype)
    col2im_add(img, col_cn, stride, pad, dilate)
    return img.swapaxes(0, 1)


col2im_nd_gpu = col2im_nd_cpu


def im2col_nd(img, ksize, stride, pad, cover_all=False, dilate=1):
    """`im2col_nd_cpu` (the same array code serves every array module)."""
    return im2col_nd_cpu(img, ksize, stride, pad, cover_all=cover_all, dilate=dilate)


def col2im_nd(col, stride, pad, dims, dilate=1):
    """`col2im_nd_cpu` (the same array code serves every array module)."""
    return col2im_nd_cpu(col, stride, pad, dims, dilate=dilate)


def _extent(k, s, d, o):
    """Number of padded input elements one axis of the patches touches."""
    return (k - 1) * d + s * (o - 1) + 1


def patches_view(src, ksize, stride, dilate, outs):
    """Patches of `src` (c, n, d_1..d_N) as a strided view (c, k_1..k_N, n, o_1..o_N).

    No data is copied: element `[c, k..., n, o...]` is
    `src[c, n, k_i * dilate_i + o_i * stride_i ...]`. `src` must be large enough
    along every spatial axis (`(k - 1) * dilate + stride * (o - 1) + 1` elements).
    """
    xp = backend.get_array_module(src)
    st = src.strides
    ndim = len(ksize)
    shape = (src.shape[0],) + tuple(ksize) + (src.shape[1],) + tuple(outs)
    strides = ((st[0],) + tuple(st[2 + i] * dilate[i] for i in range(ndim)) + (st[1],)
               + tuple(st[2 + i] * stride[i] for i in range(ndim)))
    return xp.lib.stride_tricks.as_strided(src, shape, strides)


def _padded_source(img, ksize, stride, pad, dilate, outs, pval=0):
    """`img` (n, c, d...) as a (c, n, d'...) array covering every patch.

    A transposed view when no padding is needed, else one padded copy.
    """
    src = img.swapaxes(0, 1)
    dims = img.shape[2:]
    high = tuple(max(0, _extent(k, s, di, o) - d - p)
                 for k, s, di, o, d, p in zip(ksize, stride, dilate, outs, dims, pad))
    if not any(pad) and not any(high):
        return src
    xp = backend.get_array_module(img)
    shape = img.shape[1::-1] + tuple(d + p + h for d, p, h in zip(dims, pad, high))
    if pval == 0:
        padded = xp.zeros(shape, dtype=img.dtype)
    else:
        padded = xp.full(shape, pval, dtype=img.dtype)
    padded[(slice(None), slice(None)) + tuple(slice(p, p + d) for p, d in zip(pad, dims))] \
        = src
    return padded


def _im2col_cn(img, ksize, stride, pad, dilate, outs, pval=0):
    """Patches of `img` (n, c, d...) as a contiguous (c, k_1..k_N, n, o_1..o_N) array.

    Reshaped to `(c * prod(k), n * prod(o))` it is the right operand of the
    convolution's matrix product, with no transposing copy. One copy of the patches:
    for a same-size grid (`same_grid`) one shifted copy of long rows per kernel offset
    (`_flat_im2col`), else of the strided patch view (after one padded copy of `img`
    when `pad` or `cover_all` needs it).
    """
    xp = backend.get_array_module(img)
    src_cn = img.swapaxes(0, 1)
    if same_grid(stride, outs, img.shape[2:]):
        rows = _grid_rows(src_cn)
        if rows is not None:
            col = xp.empty((img.shape[1],) + tuple(ksize) + (img.shape[0],) + tuple(outs),
                           dtype=img.dtype)
            _flat_im2col(rows, col, pad, dilate, pval)
            return col
    src = _padded_source(img, ksize, stride, pad, dilate, outs, pval)
    view = patches_view(src, ksize, stride, dilate, outs)
    col = xp.empty(view.shape, dtype=img.dtype)
    col[...] = view  # one copy of the whole view (measured ~7% faster than per offset)
    return col


# -- same-size grids: patches as shifted rows ------------------------------------------
#
# With stride 1 and an output grid as large as the image ("same" padding, the usual
# 3x3/pad-1 layer), patch position `o` of kernel offset `k` reads image position
# `o + k * dilate - pad` on every axis: in the flattened (n, d...) grid that is one
# constant shift per offset. So each offset's patches are one shifted copy of long
# contiguous rows (and col2im one shifted add), instead of a strided copy whose inner
# runs are one image row long; the positions that fall in the padding (where the shift
# wraps into the next row or image) are then set apart by per-axis slabs.

def same_grid(stride, outs, dims):
    """Whether patches with this stride and output size lie on the image's own grid."""
    return all(s == 1 for s in stride) and tuple(outs) == tuple(dims)


def _grid_rows(a_cn):
    """A (c, n, d...) array as a (c, m, L) view whose rows are L consecutive elements of
    the flattened (n, d...) grid (m = 1 when all of it is contiguous, else m = n), or
    None when the spatial axes are not contiguous."""
    c, n = a_cn.shape[:2]
    dims = a_cn.shape[2:]
    item = a_cn.itemsize
    size = 1
    for d, st in zip(reversed(dims), reversed(a_cn.strides[2:])):
        if d != 1 and st != size * item:
            return None
        size *= d
    xp = backend.get_array_module(a_cn)
    if n == 1 or a_cn.strides[1] == size * item:
        shape, strides = (c, 1, n * size), (a_cn.strides[0], n * size * item, item)
    else:
        shape, strides = (c, n, size), (a_cn.strides[0], a_cn.strides[1], item)
    return xp.lib.stride_tricks.as_strided(a_cn, shape, strides)


def _grid_parts(col, pad, dilate):
    """`(part, shift, slabs)` per kernel offset of patches `col` (c, k..., n, o...) on a
    same-size grid, in Chainer's (row-major) order: `part` is the offset's (c, n, o...)
    view of `col`, `shift` where its positions read in the flattened image grid, and
    `slabs` the per-axis index tuples into `part` of the positions that read padding."""
    ndim = (col.ndim - 2) // 2
    ksize = col.shape[1:1 + ndim]
    dims = col.shape[2 + ndim:]
    for kidx in itertools.product(*[range(k) for k in ksize]):
        shift = 0
        slabs = []
        for axis, (k, p, di, d) in enumerate(zip(kidx, pad, dilate, dims)):
            shift = shift * d + k * di - p
            lead = (slice(None),) * (axis + 2)
            # the complement of the positions inside the image (`_axis_overlap`)
            overlap = _axis_overlap(k, 1, p, di, d, d)
            lo, hi = (overlap[1].start, overlap[1].stop) if overlap else (d, d)
            if lo > 0:
                slabs.append(lead + (slice(0, lo),))
            if hi < d:
                slabs.append(lead + (slice(hi, d),))
        yield col[(slice(None),) + kidx], shift, slabs


def _shifted(length, shift):
    """(destination, source) slices of rows of `length` for `dst[q] = src[q + shift]`,
    or None when the shift leaves nothing."""
    if abs(shift) >= length:
        return None
    if shift >= 0:
        return slice(0, length - shift), slice(shift, length)
    return slice(-shift, length), slice(0, length + shift)


def _flat_im2col(rows, col, pad, dilate, pval):
    """Fill `col` (c, k..., n, o...) with the patches of the image seen as `rows`."""
    for part, shift, slabs in _grid_parts(col, pad, dilate):
        span = _shifted(rows.shape[2], shift)
        if span is not None:
            part.reshape(rows.shape)[:, :, span[0]] = rows[:, :, span[1]]
        for slab in slabs:
            part[slab] = pval


def _flat_col2im_add(img_rows, col, pad, dilate):
    """Add `col` (c, k..., n, o...) into the image seen as `img_rows`, shifted rows per
    kernel offset in Chainer's order. `col` is overwritten: its padding positions are
    set to -0.0 (adding it leaves every value, a -0.0 included, as it was), so a wrap
    into the next row or image adds nothing and the sums stay bit for bit Chainer's."""
    for part, shift, slabs in _grid_parts(col, pad, dilate):
        span = _shifted(img_rows.shape[2], -shift)   # img[q] += col[q - shift]
        if span is None:
            continue
        for slab in slabs:
            part[slab] = -0.0
        img_rows[:, :, span[0]] += part.reshape(img_rows.shape)[:, :, span[1]]


def _axis_overlap(k, s, p, d, dim, out):
    """Kernel offset `k` of one axis: `(image slice, patch slice)` of the patch positions
    that land inside the image rather than in its padding, or None if none does."""
    first = k * d - p                      # image coordinate of patch position 0
    lo = 0 if first >= 0 else (s - 1 - first) // s
    hi = min(out, (dim - 1 - first) // s + 1) if first < dim else 0
    if hi <= lo:
        return None
    start = first + lo * s
    return slice(start, start + (hi - lo - 1) * s + 1, s), slice(lo, hi)


def patch_overlap(kidx, stride, pad, dilate, dims, outs):
    """Where kernel offset `kidx` of patches over an image of spatial shape `dims`
    (padded by `pad`) lands inside the image: `(image slices, patch slices)`, one
    slice per spatial axis, or None when all of it falls in the padding."""
    axes = [_axis_overlap(k, s, p, di, d, o)
            for k, s, p, di, d, o in zip(kidx, stride, pad, dilate, dims, outs)]
    if None in axes:
        return None
    return tuple(a[0] for a in axes), tuple(a[1] for a in axes)


def col2im_add(img_cn, col, stride, pad, dilate, overwrite_col=False):
    """Add patches `col` (c, k..., n, o...) into the image `img_cn` (c, n, d...): one
    strided slice add per kernel offset, each clipped to the image, so what falls in
    the padding is never computed. The adds run in Chainer's order (kernel offsets
    row-major), so a zeroed image ends up bit for bit as Chainer's col2im.

    With `overwrite_col` (the caller's `col` is a scratch buffer) a same-size grid
    (`same_grid`) is added as shifted rows (`_flat_col2im_add`), ~3x faster."""
    ndim = len(stride)
    ksize = col.shape[1:1 + ndim]
    outs = col.shape[2 + ndim:]
    dims = img_cn.shape[2:]
    if overwrite_col and same_grid(stride, outs, dims) and col.flags.c_contiguous:
        rows = _grid_rows(img_cn)
        if rows is not None:
            _flat_col2im_add(rows, col, pad, dilate)
            return
    colon = (slice(None),)
    for kidx in itertools.product(*[range(k) for k in ksize]):
        overlap = patch_overlap(kidx, stride, pad, dilate, dims, outs)
        if overlap is not None:
            dst, src = overlap
            img_cn[colon * 2 + dst] += col[colon + kidx + colon + src]


def _col2im_cn(col, stride, pad, dims, dilate):
    """Sum patches (c, k_1..k_N, n, o_1..o_N) into an (n, c, d_1..d_N) image, returned
    in (c, n, d...) memory order (a transposed view of a contiguous array)."""
    ndim = len(dims)
    xp = backend.get_array_module(col)
    img = xp.zeros((col.shape[0], col.shape[1 + ndim]) + tuple(dims), dtype=col.dtype)
    col2im_add(img, col, stride, pad, dilate)
    return img.swapaxes(0, 1)