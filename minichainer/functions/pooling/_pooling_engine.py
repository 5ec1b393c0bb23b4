"""The N-D pooling engine shared by max/average pooling in every dimensionality.

The windows of an (n, c, d_1..d_N) input are gathered by one strided copy of a
(possibly padded) buffer into a contiguous `col` of shape (n, c, K, P), where
K = prod(ksize) kernel offsets and P = prod(outs) output positions. Every later step
(maximum, argmax code, mask, mean) then runs on contiguous (n, c, P) slices, which
NumPy processes far faster than the strided window views themselves.

Max pooling keeps, per output, the kernel offset of the first maximum (row-major
window order, as Chainer's `argmax` over its im2col patches) as a one-byte code.
Its backward needs no index scatter: when the windows tile the input
(`stride == ksize`) it is written in x's own layout, `repeat(gy) * (repeat(code)
== offset grid)`; overlapping windows mask `gy` per offset and add one strided
slice per kernel offset. Large inputs are processed in cache-sized slices of the
batch.
"""
import itertools

import numpy

from minichainer import backend
from minichainer.utils import conv
from minichainer.utils import conv_nd


def _prod(xs):
    out = 1
    for v in xs:
        out *= v
    return out


def _as_strided(xp, a, shape, strides):
    if xp is numpy:
        return numpy.lib.stride_tricks.as_strided(a, shape=shape, strides=strides)
    return xp.lib.stride_tricks.as_strided(a, shape=shape, strides=strides)


class Geometry(object):
    """Window geometry of one pooling call, validated against the input shape.

    Raises:
        ValueError: a ksize or stride that is not positive, a negative pad, or a
            window larger than the padded input (the message names the argument,
            its value and the input shape).
    """

    __slots__ = ('in_shape', 'ksize', 'stride', 'pad', 'outs', 'kk', 'P', 'buf_dims',
                 'direct', 'tiled', 'exact')

    def __init__(self, name, in_shape, ksize, stride, pad, cover_all):
        dims = in_shape[2:]
        for arg, values, low in (('ksize', ksize, 1), ('stride', stride, 1),
                                 ('pad', pad, 0)):
            for v in values:
                if not isinstance(v, (int, numpy.integer)) or v < low:
                    raise ValueError(
                        '{}: {} must be {} ints, got {} (x.shape = {})'.format(
                            name, arg, 'positive' if low else 'non-negative',
                            tuple(values), tuple(in_shape)))
        for k, d, p in zip(ksize, dims, pad):
            if k > d + 2 * p:
                raise ValueError(
                    '{}: ksize {} is larger than the padded input (x.shape = {}, '
                    'pad = {})'.format(name, tuple(ksize), tuple(in_shape), tuple(pad)))
        self.in_shape = tuple(in_shape)
        self.ksize = tuple(int(k) for k in ksize)
        self.stride = tuple(int(s) for s in stride)
        self.pad = tuple(int(p) for p in pad)
        self.outs = tuple(conv.get_conv_outsize(d, k, s, p, cover_all)
                          for d, k, s, p in zip(dims, self.ksize, self.stride, self.pad))
        self.kk = _prod(self.ksize)
        self.P = _prod(self.outs)
        # extent of the padded coordinates that the windows read
        needed = tuple(s * (o - 1) + k for s, o, k in zip(self.stride, self.outs, self.ksize))
        self.buf_dims = tuple(max(e, p + d) for e, p, d in zip(needed, self.pad, dims))
        # no padding buffer is needed when the windows stay inside x
        self.direct = all(p == 0 for p in self.pad) and all(
            e <= d for e, d in zip(needed, dims))
        self.tiled = self.stride == self.ksize
        # windows tile x exactly: every element belongs to exactly one window
        self.exact = self.tiled and self.direct and needed == tuple(dims)

    def _interior(self):
        return (slice(None), slice(None)) + tuple(
            slice(p, p + d) for p, d in zip(self.pad, self.in_shape[2:]))

    def _window_view(self, buf):
        """(n, c) + ksize + outs strided view of the windows of `buf`."""
        xp = backend.get_array_module(buf)
        st = buf.strides
        shape = buf.shape[:2] + self.ksize + self.outs
        strides = st[:2] + st[2:] + tuple(a * s for a, s in zip(st[2:], self.stride))
        return _as_strided(xp, buf, shape, strides)

    def padded(self, x, pval):
        """`x` itself when the windows stay inside it, else a copy padded with `pval`
        over the extent the windows read."""
        if self.direct:
            return x
        xp = backend.get_array_module(x)
        buf = xp.full(x.shape[:2] + self.buf_dims, pval, dtype=x.dtype)
        buf[self._interior()] = x
        return buf

    def patches(self, x, pval):
        """Contiguous windows of `x` (padded with `pval`) as (n, c, K, P)."""
        xp = backend.get_array_module(x)
        col = xp.ascontiguousarray(self._window_view(self.padded(x, pval)))
        return col.reshape(x.shape[0], x.shape[1], self.kk, self.P)

    def offsets(self):
        """`(o, dst, src)` for each kernel offset `o` (row-major, Chainer's order) whose
        windows reach into x: `dst` slices x's spatial axes, `src` the output grid."""
        ones = (1,) * len(self.ksize)
        dims = self.in_shape[2:]
        out = []
        for o, kidx in enumerate(itertools.product(*[range(k) for k in self.ksize])):
            overlap = conv_nd.patch_overlap(kidx, self.stride, self.pad, ones, dims,
                                            self.outs)
            if overlap is not None:
                out.append((o,) + overlap)
        return out

    def col2im(self, gcol):
        """Sum columns (n, c, K, P) (K may be 1: broadcast) into an (n, c) + dims image.

        One strided add per kernel offset, in Chainer's row-major offset order, each
        clipped to x (what falls in the padding is never added).
        """
        xp = backend.get_array_module(gcol)
        n, c = gcol.shape[0], self.in_shape[1]
        gx = xp.zeros((n, c) + self.in_shape[2:], dtype=gcol.dtype)
        colon = (slice(None), slice(None))
        grid = gcol.reshape((n, c, gcol.shape[2]) + self.outs)
        for o, dst, src in self.offsets():
            gx[colon + dst] += grid[colon + (o if grid.shape[2] > 1 else 0,) + src]
        return gx

    def upsample(self, a):
        """Tiled windows only: repeat `a` ((n, c) + outs) over each window.

        Returns an (n, c) + dims array (zeros where no window reads x). `numpy.repeat`
        writes contiguously, unlike an element-strided scatter into the windows.
        """
        xp = backend.get_array_module(a)
        for axis in reversed(range(len(self.ksize))):   # innermost axis first
            if self.ksize[axis] > 1:
                a = xp.repeat(a, self.ksize[axis], axis=2 + axis)
        return self.crop(a)

    def crop(self, a):
        """An array over the window extent ((n, c) + k * outs) cut to x's shape."""
        if self.exact:
            return a
        xp = backend.get_array_module(a)
        out = xp.zeros(self.in_shape, dtype=a.dtype)
        dst = [slice(None), slice(None)]
        src = [slice(None), slice(None)]
        for p, d, e in zip(self.pad, self.in_shape[2:], a.shape[2:]):
            m = min(d, e - p)
            dst.append(slice(0, m))
            src.append(slice(p, p + m))
        out[tuple(dst)] = a[tuple(src)]
        return out

    def offset_grid(self):
        """Kernel offset (row-major) of each position of the window extent, uint8/intp."""
        grid = numpy.zeros((), dtype=code_dtype(self.kk))
        for k, o in zip(self.ksize, self.outs):
            pos = numpy.tile(numpy.arange(k, dtype=grid.dtype), o)
            grid = grid[..., None] * grid.dtype.type(k) + pos
        return grid

    def out_shape(self):
        return self.in_shape[:2] + self.outs

    def batch_channel_swapped(self):
        """The same windows over the (c, n, d...) transpose of the input."""
        geo = object.__new__(Geometry)
        for name in Geometry.__slots__:
            setattr(geo, name, getattr(self, name))
        geo.in_shape = (self.in_shape[1], self.in_shape[0]) + self.in_shape[2:]
        return geo


def is_channel_major(x):
    """Whether `x` (n, c, d...) lies in (c, n, d...) memory order (a convolution's or a
    batch normalization's output), and not also in (n, c, d...) order."""
    return (x.ndim > 2 and not x.flags.c_contiguous
            and x.swapaxes(0, 1).flags.c_contiguous)


def code_dtype(kk):
    """Dtype of the argmax codes of windows with `kk` elements."""
    return numpy.uint8 if kk <= 256 else numpy.intp


# Large inputs are processed in slices of the batch of about this many bytes, so the
# several passes over each slice (gather, compare, maximum, codes) hit the CPU caches.
_CHUNK_BYTES = 1 << 20


def _batch_chunks(n, bytes_per_sample, xp=numpy):
    if xp is not numpy:
        return [(0, n)]     # on a GPU: one pass over the whole batch (fewer kernels)
    step = max(1, _CHUNK_BYTES // max(1, bytes_per_sample))
    return [(i, min(n, i + step)) for i in range(0, n, step)]


def max_forward(geo, x):
    """Max pooling: returns (y of shape (n, c) + outs, argmax codes of shape (n, c, P))."""
    xp = backend.get_array_module(x)
    n, c = x.shape[:2]
    y = xp.empty((n, c, geo.P), dtype=x.dtype)
    code = xp.empty((n, c, geo.P), dtype=code_dtype(geo.kk))
    per_sample = c * geo.kk * geo.P * x.dtype.itemsize
    for i, j in _batch_chunks(n, per_sample, xp):
        _max_forward_chunk(geo, x[i:j], y[i:j], code[i:j])
    return y.reshape(geo.out_shape()), code


def _max_forward_chunk(geo, x, y, code):
    xp = backend.get_array_module(x)
    col = geo.patches(x, -float('inf'))
    y[...] = col[:, :, 0]
    code[...] = 0
    if geo.kk == 1:
        return
    # branch-free updates (a masked copy is slow on random masks): since the
    # offsets come in increasing order, code = max(code, o * (v > y))
    greater = xp.empty(y.shape, dtype=bool)
    step = xp.empty(y.shape, dtype=code.dtype)
    for o in range(1, geo.kk):
        v = col[:, :, o]
        xp.greater(v, y, out=greater)
        xp.maximum(y, v, out=y)          # NaN-propagating, as max()
        xp.multiply(greater, code.dtype.type(o), out=step)
        xp.maximum(code, step, out=code)
    if xp is not numpy:
        # on a GPU without reading a flag back: the first NaN of each window holding one
        nan = xp.isnan(col)
        xp.copyto(code, nan.argmax(axis=2).astype(code.dtype, copy=False),
                  where=nan.any(axis=2))
        return
    with numpy.errstate(over='ignore', invalid='ignore'):
        # cheap test; a sum that overflows (float16 maps) is inf, not NaN, and
        # inf - inf only costs the exact path. No warning either way: the input is fine
        has_nan = xp.isnan(y.sum())
    if has_nan:
        # Chainer's argmax points at the first NaN of a window holding one
        nan = xp.isnan(y)
        for o in reversed(range(geo.kk)):
            xp.copyto(code, o, where=nan & xp.isnan(col[:, :, o]))


def max_backward(geo, code, gy, dtype):
    """Gradient of max pooling: `gy` routed to each window's first maximum."""
    xp = backend.get_array_module(gy)
    n, c = geo.in_shape[:2]
    # gy in the codes' layout: a transposed or cropped gy (a linear layer's or a
    # convolution's data gradient) would make each per-offset pass below a slow strided
    # one, where one copy costs less than one of those passes
    gy = xp.ascontiguousarray(gy.reshape(geo.out_shape()))
    code = code.reshape(geo.out_shape())
    if geo.tiled:
        if geo.exact:
            return _max_backward_exact(geo, code, gy, dtype)
        grid = xp.asarray(geo.offset_grid())
        return geo.crop(_max_backward_tiled(geo, code, gy, dtype, grid))
    # overlapping windows: per kernel offset (Chainer's order), gy * (code == offset)
    # added into that offset's strided slice of gx, clipped to x
    outs = geo.out_shape()[2:]
    gx = xp.zeros(geo.in_shape, dtype=dtype)
    offsets = geo.offsets()
    colon = (slice(None), slice(None))
    per_sample = c * _prod(geo.in_shape[2:]) * numpy.dtype(dtype).itemsize
    for i, j in _batch_chunks(n, per_sample, xp):
        gx_part = gx[i:j]
        mask = xp.empty((j - i, c) + outs, dtype=dtype)
        for o, dst, src in offsets:
            xp.equal(code[i:j], o, out=mask)          # 0/1 in gy's dtype, branch-free
            mask *= gy[i:j]
            gx_part[colon + dst] += mask[colon + src]
    return gx


def _max_backward_exact(geo, code, gy, dtype):
    """Windows tiling x exactly: for each kernel offset, gy * (code == offset) is
    written straight into that offset's strided slice of gx (no repeated copies)."""
    xp = backend.get_array_module(gy)
    gx = xp.empty(geo.in_shape, dtype=dtype)
    windows = geo._window_view(gx)                   # (n, c) + ksize + outs, no copy
    mask = xp.empty(gy.shape, dtype=dtype)
    colon = (slice(None), slice(None))
    for o, kidx in enumerate(itertools.product(*[range(k) for k in geo.ksize])):
        xp.equal(code, o, out=mask)                   # 0/1 in gx's dtype, branch-free
        xp.multiply(gy, mask, out=windows[colon + kidx], dtype=dtype)
    return gx


def _max_backward_tiled(geo, code, gy, dtype, grid):
    """In x's layout: gx = up(gy) * (up(code) == offset of each position)."""
    xp = backend.get_array_module(gy)
    for axis in reversed(range(len(geo.ksize))):   # innermost axis first: faster
        k = geo.ksize[axis]
        if k > 1:
            code = xp.repeat(code, k, axis=2 + axis)
            gy = xp.repeat(gy, k, axis=2 + axis)
    return xp.multiply(gy, xp.equal(code, grid), dtype=dtype)


def max_pick(geo, code, x):
    """The elements of `x` at the argmax positions (double backward of max pooling)."""
    xp = backend.get_array_module(x)
    col = geo.patches(x, -float('inf'))
    out = col[:, :, 0].copy()
    mask = xp.empty(code.shape, dtype=bool)
    for o in range(1, geo.kk):
        xp.equal(code, o, out=mask)
        xp.copyto(out, col[:, :, o], where=mask)
    return out.reshape(geo.out_shape())


def codes_to_indexes(geo, code):
    """Chainer's `indexes` (argmax within each window, intp) from the codes."""
    return code.astype(numpy.intp).reshape(geo.out_shape())


def indexes_to_codes(geo, indexes):
    """Codes (n, c, P) from an `indexes` array of the output's shape."""
    xp = backend.get_array_module(indexes)
    indexes = xp.asarray(indexes).reshape(geo.in_shape[:2] + (geo.P,))
    return indexes.astype(code_dtype(geo.kk), copy=False)


def average_forward(geo, x, width=None):
    """Average pooling; padded zeros count unless `width` (real elements) is given.

    The window sums add one strided view of the (padded) input per kernel offset, in
    Chainer's (row-major) order, into a copy of the first: the sums (and for float16 the
    float32 accumulation of a mean) are those of NumPy's reduction over gathered
    windows, without the kernel-size-fold copy of the input that gathering makes.
    """
    windows = geo._window_view(geo.padded(x, 0))     # (n, c) + ksize + outs, no copy
    colon = (slice(None), slice(None))
    offsets = itertools.product(*[range(k) for k in geo.ksize])
    # NumPy's mean of float16 sums in float32 (then divides and rounds once)
    acc = numpy.float32 if width is None and x.dtype == numpy.float16 else x.dtype
    y = windows[colon + next(offsets)].astype(acc)   # a copy
    for kidx in offsets:
        y += windows[colon + kidx]
    if width is None:
        y /= y.dtype.type(geo.kk)
    else:
        y = y / width
    return y.astype(x.dtype, copy=False)


def average_backward(geo, gy, dtype, width=None):
    """Gradient of average pooling (divisor applied after summing, as Chainer)."""
    n, c = geo.in_shape[:2]
    if width is not None:
        gy = gy / width
    if geo.tiled:
        # one term per input element: dividing first rounds exactly like after
        if width is None:
            gy = gy / gy.dtype.type(geo.kk)
        return geo.upsample(gy.astype(dtype, copy=False))
    gx = geo.col2im(gy.reshape(n, c, 1, geo.P).astype(dtype, copy=False))
    if width is None:
        gx /= gx.dtype.type(geo.kk)
    return gx


def pooling_width(xp, geo, dtype):
    """Number of real (non-padded) elements in each window, shape `outs`."""
    width = None
    for d, k, s, p, o in zip(geo.in_shape[2:], geo.ksize, geo.stride, geo.pad, geo.outs):
        starts = -p + numpy.arange(o, dtype=dtype) * s
        ends = numpy.minimum(starts + k, d)
        w = ends - numpy.maximum(starts, 0)
        width = w if width is None else numpy.tensordot(width[..., None], w[None], axes=1)
    return xp.asarray(width)
