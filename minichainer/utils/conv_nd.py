"""N-dimensional `im2col`/`col2im` (Chainer's `chainer.utils.conv_nd`) and the
channel-major patch helpers of the convolution engine.

Patches are a strided view of the (padded) input, copied at most once; `col2im` adds
one strided slice per kernel offset, clipped to the image (no padded buffer). On a
same-size grid, and on the phases of a strided grid, both work on shifted rows of the
flattened grid instead. The code
takes its array module from its inputs, so the `*_gpu` names are the same functions.
"""
import itertools
import math

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
    src = padded_source(img, ksize, stride, pad, dilate, outs, pval)
    view = patches_view(src, ksize, stride, dilate, outs)
    # (c, k..., n, o...) -> (n, c, k..., o...), one copy
    order = (ndim + 1, 0) + tuple(range(1, ndim + 1)) + tuple(range(ndim + 2, 2 * ndim + 2))
    return view.transpose(order).copy()


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


def im2col_nd_gpu(img, ksize, stride, pad, cover_all=False, dilate=1):
    """`im2col_nd_cpu` with Chainer's GPU signature (the array code is module-agnostic:
    CuPy arrays stay on their device)."""
    return im2col_nd_cpu(img, ksize, stride, pad, cover_all=cover_all, dilate=dilate)


def col2im_nd_gpu(col, stride, pad, dims, dilate=1):
    """`col2im_nd_cpu` with Chainer's GPU signature (module-agnostic)."""
    return col2im_nd_cpu(col, stride, pad, dims, dilate=dilate)


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


def check_spatial_ndim(x, ndim):
    """Raise ValueError unless `x` has exactly `ndim` axes after (batch, channel) (the
    1-D and 3-D convolutions and poolings)."""
    if len(x.shape[2:]) != ndim:
        raise ValueError(
            'The number of dimensions under channel dimension of the input '
            "'x' should be {}. But the actual ndim was {}.".format(ndim, len(x.shape[2:])))


def padded_source(img, ksize, stride, pad, dilate, outs, pval=0):
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


def im2col_cn(img, ksize, stride, pad, dilate, outs, pval=0):
    """Patches of `img` (n, c, d...) as a contiguous (c, k_1..k_N, n, o_1..o_N) array.

    Reshaped to `(c * prod(k), n * prod(o))` it is the right operand of the
    convolution's matrix product, with no transposing copy. One copy of the patches:
    for a same-size grid (`same_grid`) one shifted copy of long rows of the image per
    kernel offset, for a strided grid whose phases fit the output (`phase_grid`) the
    same from dense copies of the phases (`_flat_im2col`), else a copy of the strided
    patch view (after one padded copy of `img` when `pad` or `cover_all` needs it).
    """
    xp = backend.get_array_module(img)
    src_cn = img.swapaxes(0, 1)
    shape = (img.shape[1],) + tuple(ksize) + (img.shape[0],) + tuple(outs)
    planes = None
    if same_grid(stride, outs, img.shape[2:]):
        rows = _grid_rows(src_cn)
        planes = None if rows is None else [rows]
    elif phase_grid(stride, ksize, outs, img.shape[2:]):
        planes = _phase_planes(src_cn, stride, outs, pad, dilate, ksize, pval)
    if planes is not None:
        col = xp.empty(shape, dtype=img.dtype)
        _flat_im2col(planes, col, stride, pad, dilate, pval)
        return col
    src = padded_source(img, ksize, stride, pad, dilate, outs, pval)
    view = patches_view(src, ksize, stride, dilate, outs)
    col = xp.empty(view.shape, dtype=img.dtype)
    col[...] = view  # one copy of the whole view (measured ~7% faster than per offset)
    return col


def pointwise(ksize, stride, pad, outs, dims):
    """Whether each patch is one pixel at its own position (a 1x1 kernel, stride 1, no
    padding): the patches are then the image itself."""
    return (all(k == 1 for k in ksize) and all(s == 1 for s in stride) and not any(pad)
            and tuple(outs) == tuple(dims))


def patches_cn(img, ksize, stride, pad, dilate, outs):
    """The patches (c, k..., n, o...) of `img` (n, c, d...) that a convolution's products
    read: `im2col_cn`'s copy, or for a pointwise kernel over an image in (c, n, d...)
    memory order (another convolution's output) a view of the image itself. Read only."""
    if pointwise(ksize, stride, pad, outs, img.shape[2:]):
        src_cn = img.swapaxes(0, 1)
        if src_cn.flags.c_contiguous:
            return src_cn.reshape(src_cn.shape[:1] + tuple(ksize) + src_cn.shape[1:])
    return im2col_cn(img, ksize, stride, pad, dilate, outs)


# -- shifted rows: same-size grids and the phases of strided grids ----------------------
#
# With stride 1 and an output grid as large as the image ("same" padding, the usual
# 3x3/pad-1 layer), patch position `o` of kernel offset `k` reads image position
# `o + k * dilate - pad` on every axis: in the flattened (n, d...) grid that is one
# constant shift per offset. So each offset's patches are one shifted copy of long
# contiguous rows (and col2im one shifted add), instead of a strided copy whose inner
# runs are one image row long; the positions that fall in the padding (where the shift
# wraps into the next row or image) are then set apart by per-axis slabs.
#
# With a stride s > 1 the image splits into s phases per axis (the coordinates equal
# modulo s). Offset `k` reads coordinate `o * s + t` with `t = k * dilate - pad`: phase
# `t mod s`, at index `o + t // s` of that phase's lattice, again one constant shift.
# When every phase lattice fits the output grid (`ceil(d / s) <= out` on each axis),
# the phases that some offset reads are copied once into dense planes shaped like the
# output grid, and every offset becomes one shifted copy or add of a plane's rows.
# A stride-1 same-size grid is the case of one phase whose plane is the image itself.

def same_grid(stride, outs, dims):
    """Whether patches with this stride and output size lie on the image's own grid."""
    return all(s == 1 for s in stride) and tuple(outs) == tuple(dims)


def phase_grid(stride, ksize, outs, dims):
    """Whether strided patches go through phase planes: some stride above 1, every
    phase lattice (`ceil(d / s)` positions) within the output grid, and more kernel
    offsets than phases read (else one strided copy or add per offset costs less)."""
    if all(s == 1 for s in stride):
        return False
    if any(-(-d // s) > o for d, s, o in zip(dims, stride, outs)):
        return False
    return math.prod(ksize) > math.prod(min(k, s) for k, s in zip(ksize, stride))


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


def _offset_parts(col, stride, pad, dilate):
    """`(part, phase, shift, slabs)` per kernel offset of patches `col` (c, k..., n, o...),
    in Chainer's (row-major) order: `part` is the offset's (c, n, o...) view of `col`,
    `phase` the row-major index of the phase it reads (0 for stride 1), `shift` where
    its positions read in the flattened (n, o...) grid of that phase (None when none
    lands inside it), and `slabs` the per-axis index tuples into `part` of the positions
    that fall outside."""
    ndim = (col.ndim - 2) // 2
    ksize = col.shape[1:1 + ndim]
    outs = col.shape[2 + ndim:]
    for kidx in itertools.product(*[range(k) for k in ksize]):
        phase = shift = 0
        inside = True
        slabs = []
        for axis, (k, s, p, di, o) in enumerate(zip(kidx, stride, pad, dilate, outs)):
            t = k * di - p
            phase = phase * s + t % s
            delta = t // s
            shift = shift * o + delta
            lo, hi = max(0, -delta), min(o, o - delta)
            inside = inside and lo < hi
            lead = (slice(None),) * (axis + 2)
            if lo > 0:
                slabs.append(lead + (slice(0, min(lo, o)),))
            if hi < o:
                slabs.append(lead + (slice(max(hi, 0), o),))
        yield col[(slice(None),) + kidx], phase, shift if inside else None, slabs


def _shifted(length, shift):
    """(destination, source) slices of rows of `length` for `dst[q] = src[q + shift]`,
    or None when the shift leaves nothing."""
    if abs(shift) >= length:
        return None
    if shift >= 0:
        return slice(0, length - shift), slice(shift, length)
    return slice(-shift, length), slice(0, length + shift)


def _phase_views(a_cn, stride, outs, pad, dilate, ksize):
    """`(phase, lattice view of a_cn (c, n, m...), plane slices)` for each phase that
    some kernel offset reads: the view holds the image positions of the phase, the
    slices cut an (c, n, outs...) plane to the view's shape."""
    read = [sorted({(k * di - p) % s for k in range(kk)})
            for kk, s, p, di in zip(ksize, stride, pad, dilate)]
    colon = (slice(None), slice(None))
    for residues in itertools.product(*read):
        phase = 0
        for r, s in zip(residues, stride):
            phase = phase * s + r
        view = a_cn[colon + tuple(slice(r, None, s) for r, s in zip(residues, stride))]
        yield phase, view, colon + tuple(slice(0, m) for m in view.shape[2:])


def _phase_planes(img_cn, stride, outs, pad, dilate, ksize, pval):
    """Rows views (c, 1, n * prod(outs)) of dense copies of the phases of `img_cn` that
    the kernel offsets read (positions past the image hold `pval`); None for the rest."""
    xp = backend.get_array_module(img_cn)
    c, n = img_cn.shape[:2]
    planes = [None] * math.prod(stride)
    for phase, view, cut in _phase_views(img_cn, stride, outs, pad, dilate, ksize):
        plane = xp.empty((c, n) + tuple(outs), dtype=img_cn.dtype)
        if view.shape[2:] != tuple(outs):
            plane[...] = pval
        plane[cut] = view
        planes[phase] = plane.reshape(c, 1, -1)
    return planes


def _flat_im2col(planes, col, stride, pad, dilate, pval):
    """Fill `col` (c, k..., n, o...) with shifted rows of the phase `planes` (rows views
    indexed by phase; the image itself for a same-size grid)."""
    for part, phase, shift, slabs in _offset_parts(col, stride, pad, dilate):
        if shift is None:
            part[...] = pval
            continue
        rows = planes[phase]
        span = _shifted(rows.shape[2], shift)
        if span is not None:
            part.reshape(rows.shape)[:, :, span[0]] = rows[:, :, span[1]]
        for slab in slabs:
            part[slab] = pval


def _flat_col2im_add(planes, col, stride, pad, dilate):
    """Add `col` (c, k..., n, o...) into the phase `planes` (rows views indexed by phase;
    the image itself for a same-size grid), shifted rows per kernel offset in Chainer's
    order. `col` is overwritten: its positions outside a plane are set to -0.0 (adding
    it leaves every value, a -0.0 included, as it was), so a wrap into the next row or
    image adds nothing and the sums stay bit for bit Chainer's."""
    for part, phase, shift, slabs in _offset_parts(col, stride, pad, dilate):
        if shift is None:
            continue
        rows = planes[phase]
        span = _shifted(rows.shape[2], -shift)   # plane[q] += col[q - shift]
        if span is None:
            continue
        for slab in slabs:
            part[slab] = -0.0
        rows[:, :, span[0]] += part.reshape(rows.shape)[:, :, span[1]]


def _phased_col2im_add(img_cn, col, stride, pad, dilate, zeroed):
    """`col2im_add` through phase planes: each phase that receives patches starts as a
    copy of its positions in `img_cn` (as zeros when the image is `zeroed`), the offsets
    are added into it as shifted rows (in Chainer's order, so every sum is what the
    strided adds give), and it is written back."""
    ndim = len(stride)
    ksize = col.shape[1:1 + ndim]
    outs = col.shape[2 + ndim:]
    plane_shape = col.shape[:1] + col.shape[1 + ndim:]
    views = list(_phase_views(img_cn, stride, outs, pad, dilate, ksize))
    if zeroed:
        xp = backend.get_array_module(img_cn)
        planes = [None] * math.prod(stride)
        for phase, _, _ in views:
            planes[phase] = xp.zeros(plane_shape, dtype=img_cn.dtype).reshape(
                plane_shape[0], 1, -1)
    else:
        planes = _phase_planes(img_cn, stride, outs, pad, dilate, ksize, 0)
    _flat_col2im_add(planes, col, stride, pad, dilate)
    for phase, view, cut in views:
        view[...] = planes[phase].reshape(plane_shape)[cut]


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


def col2im_add(img_cn, col, stride, pad, dilate, overwrite_col=False, zeroed=False):
    """Add patches `col` (c, k..., n, o...) into the image `img_cn` (c, n, d...): one
    strided slice add per kernel offset, each clipped to the image, so what falls in
    the padding is never computed. The adds run in Chainer's order (kernel offsets
    row-major), so a zeroed image ends up bit for bit as Chainer's col2im.

    With `overwrite_col` (the caller's `col` is a scratch buffer) a same-size grid
    (`same_grid`) is added as shifted rows (`_flat_col2im_add`), ~3x faster, and so are
    the phases of a strided grid (`phase_grid`, `_phased_col2im_add`); `zeroed` says
    that `img_cn` holds only zeros (a fresh buffer), which that path then need not read."""
    ndim = len(stride)
    ksize = col.shape[1:1 + ndim]
    outs = col.shape[2 + ndim:]
    dims = img_cn.shape[2:]
    if overwrite_col and col.flags.c_contiguous:
        if same_grid(stride, outs, dims):
            rows = _grid_rows(img_cn)
            if rows is not None:
                _flat_col2im_add([rows], col, stride, pad, dilate)
                return
        elif phase_grid(stride, ksize, outs, dims):
            _phased_col2im_add(img_cn, col, stride, pad, dilate, zeroed)
            return
    colon = (slice(None),)
    for kidx in itertools.product(*[range(k) for k in ksize]):
        overlap = patch_overlap(kidx, stride, pad, dilate, dims, outs)
        if overlap is not None:
            dst, src = overlap
            img_cn[colon * 2 + dst] += col[colon + kidx + colon + src]


def col2im_cn(col, stride, pad, dims, dilate):
    """Sum patches (c, k_1..k_N, n, o_1..o_N) into an (n, c, d_1..d_N) image, returned
    in (c, n, d...) memory order (a transposed view of a contiguous array)."""
    ndim = len(dims)
    xp = backend.get_array_module(col)
    img = xp.zeros((col.shape[0], col.shape[1 + ndim]) + tuple(dims), dtype=col.dtype)
    col2im_add(img, col, stride, pad, dilate)
    return img.swapaxes(0, 1)