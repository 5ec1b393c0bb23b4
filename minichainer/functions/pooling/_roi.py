"""Shared machinery of the ROI pooling and ROI align functions.

Every ROI function is, once its bins (and, for the max variants, its winners) are
known, a fixed sparse linear map from the input feature map to the output:

    y[r, c, i, j] = sum_k weight[r, i, j, k] * x_flat[pixel[r, i, j, k], c]

where `x_flat` is `x` laid out as `(batch * height * width, channels)`.
`SampleMap` holds such a map for the average variants (the same taps for every
channel); `WinnerMap` holds the map of the max variants (one winning window
pixel or bilinear sample per channel, kept as an arg-max).  Their `gather` is the
forward pass and their `scatter` the backward pass.  Because a map does not depend
on `x`, the gradient nodes `ROIScatter` / `ROIGather` are each other's
backward, so the functions can be differentiated any number of times w.r.t. `x`.
Work is done a chunk of ROIs at a time so that temporaries stay bounded.
"""
import collections.abc
import numbers

import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.util import checks
from minichainer.utils import scatter
from minichainer.utils import type_check


def _pair(value, name, fname):
    if isinstance(value, collections.abc.Iterable) and not isinstance(value, str):
        value = tuple(value)
        if len(value) != 2:
            raise ValueError('{}: {} must be an int or a pair of ints, got {!r}'.format(
                fname, name, value))
        return value
    return value, value


def parse_outsize(outsize, fname):
    """`(outh, outw)` from an int or a pair; TypeError (as Chainer) when not positive ints."""
    outh, outw = _pair(outsize, 'outsize', fname)
    for i, v in enumerate((outh, outw)):
        if not (isinstance(v, numbers.Integral) and v > 0):
            raise TypeError('{}: outsize[{}] must be a positive integer, got {!r} ({})'.format(
                fname, i, v, type(v).__name__))
    return int(outh), int(outw)


def parse_spatial_scale(spatial_scale, fname):
    if isinstance(spatial_scale, numbers.Integral):
        spatial_scale = float(spatial_scale)
    if not (isinstance(spatial_scale, numbers.Real) and spatial_scale > 0):
        raise TypeError('{}: spatial_scale must be a positive float, got {!r} ({})'.format(
            fname, spatial_scale, type(spatial_scale).__name__))
    return float(spatial_scale)


def parse_sampling_ratio(sampling_ratio, fname):
    ratio = _pair(sampling_ratio, 'sampling_ratio', fname)
    for v in ratio:
        if v is not None and not (isinstance(v, numbers.Integral) and v >= 1):
            raise TypeError('{}: sampling_ratio must be None, an integer >= 1 or a pair of '
                            'them, got {!r}'.format(fname, sampling_ratio))
    return tuple(None if v is None else int(v) for v in ratio)


def largest(sizes):
    """The largest of the per-ROI `sizes` (0 when there is none) as a Python int.

    The bins' extents set the shape of the gather's temporaries, so on a GPU this is
    one scalar read back to the host per call (the ROI functions' only one; Chainer's
    CUDA kernels loop over the bins instead)."""
    return int(sizes.max()) if sizes.size else 0


def check_batch_indices(index, batch_size, name, fname):
    """Raise ValueError when a batch index of a ROI is outside `[0, batch_size)`."""
    if index.size == 0:
        return
    lo = int(index.min())
    hi = int(index.max())
    if lo < 0 or hi >= batch_size:
        bad = lo if lo < 0 else hi
        raise ValueError('{}: {} must be in [0, {}) (the batch size of x), got {}'.format(
            fname, name, batch_size, bad))


# --------------------------------------------------------------------------- bins

def quantized_bins(start, size, out, limit, xp):
    """Integer pixel ranges of the `out` bins of each ROI along one axis.

    `start` (R,) is the rounded ROI start and `size` (R,) its (>= 1) extent.  Returns
    `rows` (R, out, K) int64 (clipped into the map), `valid` (R, out, K) bool, and the
    per-bin pixel count `count` (R, out).
    """
    stride = size.astype(numpy.float64) / out
    p = xp.arange(out, dtype=numpy.float64)
    lo = xp.floor(p * stride[:, None]).astype(numpy.int64) + start[:, None]
    hi = xp.ceil((p + 1) * stride[:, None]).astype(numpy.int64) + start[:, None]
    lo = xp.clip(lo, 0, limit)
    hi = xp.clip(hi, 0, limit)
    count = xp.maximum(hi - lo, 0)
    # At least one (masked) slot, so that reductions over it are defined for empty bins.
    k = max(largest(count), 1)
    rows = lo[:, :, None] + xp.arange(k)
    valid = rows < hi[:, :, None]
    rows = xp.minimum(rows, limit - 1)
    return rows, valid, count


def window_map(batch, rows, row_valid, cols, col_valid, height, width):
    """Pixel indices and validity of the rectangular windows `rows x cols`.

    Returns `pixel` and `valid` of shape (R, outh, outw, Kh * Kw), the window
    flattened row-major (so `argmax` over it picks Chainer's first maximum).
    """
    n_rois, outh, kh = rows.shape
    outw, kw = cols.shape[1:]
    pixel = ((batch[:, None, None, None, None] * height + rows[:, :, :, None, None]) * width
             + cols[:, None, None, :, :])
    valid = row_valid[:, :, :, None, None] & col_valid[:, None, None, :, :]
    pixel = pixel.transpose(0, 1, 3, 2, 4).reshape(n_rois, outh, outw, kh * kw)
    valid = valid.transpose(0, 1, 3, 2, 4).reshape(n_rois, outh, outw, kh * kw)
    return pixel, valid


def _interp_axis(p, limit, xp):
    """Bilinear taps of sample coordinates `p` along an axis of length `limit`.

    Follows Chainer's ROIAlign bounds rule: samples outside `[-1, limit]` are dropped,
    samples in `[-1, 0)` or `[limit - 1, limit]` are clamped to the border pixel.
    Returns `index` (..., 2) int64, `weight` (..., 2) float64 (zero for taps outside
    the map) and `valid` (...) bool.
    """
    valid = (p >= -1) & (p <= limit)
    low = xp.floor(p).astype(numpy.int64)
    low = xp.where(low == limit, low - 1, low)
    high = low + 1
    p = xp.where(low <= -1, 0., xp.where(high >= limit, limit - 1., p))
    w_low = (high - p) * (low >= 0)
    w_high = (p - low) * (high <= limit - 1)
    index = xp.clip(xp.stack((low, high), axis=-1), 0, limit - 1)
    weight = xp.stack((w_low, w_high), axis=-1) * valid[..., None]
    return index, weight, valid


def _sample_grid(start, size, out, ratio, xp):
    """Sample coordinates (R, out, G) of each bin, their in-grid mask and grid sizes (R,)."""
    bin_size = size / out
    if ratio is None:
        grid = xp.ceil(size / out).astype(numpy.int64)
        g = max(largest(grid), 1)
    else:
        grid = xp.full(size.shape, ratio, dtype=numpy.int64)
        g = ratio
    i = xp.arange(g, dtype=numpy.float64)
    p = xp.arange(out, dtype=numpy.float64)[:, None]
    bs = bin_size[:, None, None]
    coords = (start[:, None, None] + p * bs) + (i + .5) * bs / grid[:, None, None]
    in_grid = xp.broadcast_to(i < grid[:, None, None], coords.shape)
    return coords, in_grid, grid


def align_map(x_shape, rois, batch, spatial_scale, outh, outw, sampling_ratio):
    """Bilinear sampling taps of ROIAlign.

    Returns `pixel` and `weight` (float64) of shape (R, outh, outw, Gh * Gw, 4), the
    sample validity (R, outh, outw, Gh * Gw) and the per-ROI sample count (R,) (samples
    outside a ROI's own grid or the map have zero weights).
    """
    xp = backend.get_array_module(rois)
    height, width = x_shape[2:]
    r = rois.astype(numpy.float64) * spatial_scale
    size_h = xp.maximum(r[:, 2] - r[:, 0], 1.)
    size_w = xp.maximum(r[:, 3] - r[:, 1], 1.)
    ys, y_in, grid_h = _sample_grid(r[:, 0], size_h, outh, sampling_ratio[0], xp)
    xs, x_in, grid_w = _sample_grid(r[:, 1], size_w, outw, sampling_ratio[1], xp)
    yi, yw, yv = _interp_axis(ys, height, xp)
    xi, xw, xv = _interp_axis(xs, width, xp)
    yv &= y_in
    xv &= x_in
    n_rois, _, gh = ys.shape
    gw = xs.shape[2]
    # axes: (R, outh, outw, Gh, Gw, tap_y, tap_x)
    pixel = ((batch[:, None, None, None, None, None, None] * height
              + yi[:, :, None, :, None, :, None]) * width
             + xi[:, None, :, None, :, None, :])
    weight = (yw * yv[..., None])[:, :, None, :, None, :, None] \
        * (xw * xv[..., None])[:, None, :, None, :, None, :]
    valid = yv[:, :, None, :, None] & xv[:, None, :, None, :]
    shape = (n_rois, outh, outw, gh * gw)
    return (pixel.reshape(shape + (4,)), weight.reshape(shape + (4,)),
            valid.reshape(shape), grid_h * grid_w)


# --------------------------------------------------------------------------- the map

# Largest temporary (in elements) one chunk of ROIs may gather: about 64 MB of float32.
_CHUNK_ELEMENTS = 1 << 24


def roi_chunks(n_rois, per_roi):
    """Slices over the ROIs so that a chunk touches at most `_CHUNK_ELEMENTS` values."""
    step = max(1, _CHUNK_ELEMENTS // max(per_roi, 1))
    return [slice(i, min(i + step, n_rois)) for i in range(0, n_rois, step)]


class SampleMap:
    """A fixed sparse linear map from `x` (B, C, H, W) to `y` (R, C, outh, outw).

    Every channel uses the same taps: `pixel` and `weight` have shape
    (R, outh, outw, K).
    """

    _plan = None

    def __init__(self, pixel, weight, x_shape):
        self.pixel = pixel
        self.weight = weight
        self.x_shape = x_shape

    @staticmethod
    def flat(x):
        """`x` (B, C, H, W) as (B * H * W, C)."""
        return x.transpose(0, 2, 3, 1).reshape(-1, x.shape[1])

    def gather(self, x):
        xp = backend.get_array_module(x)
        xf = self.flat(x)
        channels = xf.shape[1]
        pixel = self.pixel
        w = self.weight.astype(numpy.promote_types(x.dtype, numpy.float32), copy=False)
        y = xp.empty(pixel.shape[:3] + (channels,), dtype=w.dtype)
        for sl in roi_chunks(len(pixel), int(numpy.prod(pixel.shape[1:])) * channels):
            y[sl] = xp.matmul(w[sl][..., None, :], xf[pixel[sl]])[..., 0, :]
        return xp.ascontiguousarray(y.transpose(0, 3, 1, 2)).astype(x.dtype, copy=False),

    def _scatter_plan(self):
        """Non-zero taps sorted by target pixel (computed once, reused by every scatter).

        Returns `(source_row, weight, starts, targets)`: tap `e` adds
        `weight[e] * gy_row[source_row[e]]` to pixel `targets[i]` for the run of taps
        starting at `starts[i]`.
        """
        plan = self._plan
        if plan is None:
            xp = backend.get_array_module(self.pixel)
            k = self.pixel.shape[-1]
            pixel = self.pixel.ravel()
            weight = self.weight.ravel()
            taps = xp.flatnonzero(weight)
            taps = taps[xp.argsort(pixel[taps], kind='stable')]
            sorted_pixel = pixel[taps]
            new_run = xp.ones(sorted_pixel.shape, dtype=bool)
            new_run[1:] = sorted_pixel[1:] != sorted_pixel[:-1]
            starts = xp.flatnonzero(new_run)
            plan = self._plan = (taps // k, weight[taps], starts, sorted_pixel[starts])
        return plan

    def scatter(self, gy):
        # Sum whole channel rows per target pixel (sorted segments), a chunk of whole
        # segments at a time.
        xp = backend.get_array_module(gy)
        if xp is not numpy:
            return self._scatter_add(gy, xp)
        b, c, h, w = self.x_shape
        source, weight, starts, targets = self._scatter_plan()
        gy_rows = gy.transpose(0, 2, 3, 1).reshape(-1, c)
        gx = xp.zeros((b * h * w, c), dtype=gy.dtype)
        n_taps = len(source)
        step = max(1, _CHUNK_ELEMENTS // max(c, 1))
        first = 0
        while first < len(starts):
            lo = int(starts[first])
            last = max(int(xp.searchsorted(starts, lo + step)), first + 1)
            hi = int(starts[last]) if last < len(starts) else n_taps
            rows = gy_rows[source[lo:hi]]
            rows *= weight[lo:hi].astype(rows.dtype, copy=False)[:, None]
            gx[targets[first:last]] = xp.add.reduceat(rows, starts[first:last] - lo, axis=0)
            first = last
        gx = gx.reshape(b, h, w, c).transpose(0, 3, 1, 2)
        return xp.ascontiguousarray(gx),


    def _scatter_add(self, gy, xp):
        # On a GPU: one scatter-add of every weighted tap a chunk of ROIs at a time (the
        # sorted-segment plan would read its segment bounds back to the host).
        b, c, h, w = self.x_shape
        gy_rows = gy.transpose(0, 2, 3, 1)                   # (R, outh, outw, C)
        gx = xp.zeros((b * h * w, c), dtype=gy.dtype)
        pixel = self.pixel
        weight = self.weight.astype(gy.dtype, copy=False)
        for sl in roi_chunks(len(pixel), int(numpy.prod(pixel.shape[1:])) * c):
            taps = weight[sl][..., None] * gy_rows[sl][..., None, :]   # (r, oh, ow, K, C)
            scatter.scatter_add(gx, pixel[sl].ravel(), taps.reshape(-1, c))
        gx = gx.reshape(b, h, w, c).transpose(0, 3, 1, 2)
        return xp.ascontiguousarray(gx),


class WinnerMap:
    """The linear map of a max ROI function once its winners are known.

    Output `(r, c, i, j)` is candidate `arg[c, r, i, j]` of its bin, a candidate
    being a weighted sum of `T` taps `pixel/weight[r, i, j, k, :]` (T = 1 for a
    window pixel, 4 for a bilinear sample).  Bins without any candidate (`nonempty`
    false) map to 0.  Only the arg-max is stored per channel; the taps are looked up a
    chunk of ROIs at a time.
    """

    def __init__(self, pixel, weight, arg, nonempty, x_shape):
        self.pixel = pixel
        self.weight = weight * nonempty[..., None, None]
        self.arg = arg
        self.x_shape = x_shape

    def _chunks(self):
        """Per chunk: ROI slice and the winning taps' pixels/weights (C, r, oh, ow, T)."""
        xp = backend.get_array_module(self.pixel)
        n_rois, outh, outw, k, t = self.pixel.shape
        channels = self.x_shape[1]
        for sl in roi_chunks(n_rois, channels * outh * outw * t):
            arg = self.arg[:, sl]
            first = sl.start * outh * outw
            sample = xp.arange(first, first + arg[0].size).reshape(arg.shape[1:]) * k + arg
            yield (sl, self.pixel.reshape(-1, t)[sample],
                   self.weight.reshape(-1, t)[sample])

    def gather(self, x):
        xp = backend.get_array_module(x)
        xc = channel_major(x)
        channel = xp.arange(x.shape[1])[:, None, None, None, None]
        y = xp.empty(self.arg.shape, dtype=x.dtype)
        for sl, pixel, weight in self._chunks():
            y[:, sl] = (xc[channel, pixel] * weight.astype(x.dtype)).sum(axis=-1)
        return xp.ascontiguousarray(y.transpose(1, 0, 2, 3)),

    def scatter(self, gy):
        xp = backend.get_array_module(gy)
        b, c, h, w = self.x_shape
        channel = xp.arange(c)[:, None, None, None, None] * (b * h * w)
        gyc = gy.transpose(1, 0, 2, 3)
        gx = xp.zeros(c * b * h * w)
        for sl, pixel, weight in self._chunks():
            vals = weight * gyc[:, sl, :, :, None]
            gx += scatter.bincount((pixel + channel).ravel(), gx.size,
                                   weights=vals.ravel())
        gx = gx.reshape(c, b, h, w).transpose(1, 0, 2, 3)
        return xp.ascontiguousarray(gx).astype(gy.dtype, copy=False),


class ROIScatter(function_node.FunctionNode):
    """Gradient of an ROI function w.r.t. `x`: the transposed sample map applied to gy."""

    def __init__(self, sample_map):
        self.sample_map = sample_map

    def forward(self, inputs):
        return self.sample_map.scatter(inputs[0])

    def backward(self, indexes, grad_outputs):
        return ROIGather(self.sample_map).apply(grad_outputs)


class ROIGather(function_node.FunctionNode):
    """The sample map of an ROI function applied to its input (used for higher orders)."""

    def __init__(self, sample_map):
        self.sample_map = sample_map

    def forward(self, inputs):
        return self.sample_map.gather(inputs[0])

    def backward(self, indexes, grad_outputs):
        return ROIScatter(self.sample_map).apply(grad_outputs)


def channel_major(x):
    """`x` (B, C, H, W) as (C, B * H * W), so gathers put the reduced axis last."""
    return x.transpose(1, 0, 2, 3).reshape(x.shape[1], -1)


def first_max(values, xp):
    """Max over the last axis and the index of its first occurrence (Chainer's tie rule)."""
    arg = values.argmax(axis=-1)
    k = values.shape[-1]
    flat = xp.arange(arg.size) * k + arg.ravel()
    return values.reshape(-1)[flat].reshape(arg.shape), arg


class ROIFunctionBase(function_node.FunctionNode):
    """Base of the `(x, rois, roi_indices)` ROI functions of Chainer 7.

    Subclasses set `_name` and `_float32_only` and implement `_forward` returning
    the output and the `SampleMap` of the backward pass.
    """

    _name = 'roi'
    _float32_only = False
    sample_map = None

    def __init__(self, outsize, spatial_scale):
        self.outh, self.outw = parse_outsize(outsize, self._name)
        self.spatial_scale = parse_spatial_scale(spatial_scale, self._name)

    def __call__(self, x, rois, roi_indices):
        # Chainer's classes are old-style Functions, called directly on the inputs.
        return self.apply((x, rois, roi_indices))[0]

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'rois', 'roi_indices'))
        x_type, roi_type, roi_index_type = in_types
        if self._float32_only:
            type_check.expect(x_type.dtype == numpy.float32,
                              roi_type.dtype == numpy.float32)
        else:
            type_check.expect(x_type.dtype.kind == 'f',
                              x_type.dtype == roi_type.dtype)
        type_check.expect(
            x_type.ndim == 4,
            roi_type.ndim == 2,
            roi_index_type.dtype == numpy.int32,
            roi_index_type.ndim == 1,
        )
        type_check.expect(
            roi_type.shape[1] == 4,
            roi_type.shape[0] == roi_index_type.shape[0],
        )

    def forward(self, inputs):
        x, rois, roi_indices = inputs
        if checks.values_checked(backend.get_array_module(x)):
            check_batch_indices(roi_indices, x.shape[0], 'roi_indices', self._name)
        y, self.sample_map = self._forward(x, rois, roi_indices.astype(numpy.int64))
        return y,

    def backward(self, indexes, grad_outputs):
        gx = ROIScatter(self.sample_map).apply(grad_outputs)[0]
        return gx, None, None


class QuantizedROIBase(ROIFunctionBase):
    """ROI pooling on integer bins: rounded ROI corners `(y_min, x_min, y_max, x_max)`."""

    def _bins(self, x_shape, rois, batch):
        xp = backend.get_array_module(rois)
        height, width = x_shape[2:]
        r = xp.round(rois.astype(numpy.float64) * self.spatial_scale).astype(numpy.int64)
        size_h = xp.maximum(r[:, 2] - r[:, 0], 1)
        size_w = xp.maximum(r[:, 3] - r[:, 1], 1)
        rows, row_valid, count_h = quantized_bins(r[:, 0], size_h, self.outh, height, xp)
        cols, col_valid, count_w = quantized_bins(r[:, 1], size_w, self.outw, width, xp)
        pixel, valid = window_map(batch, rows, row_valid, cols, col_valid, height, width)
        count = count_h[:, :, None] * count_w[:, None, :]
        return pixel, valid, count


def max_over_windows(x, pixel, valid, empty_value):
    """Max of `x` over each window; returns `(y, WinnerMap)` routing to the winners."""
    xp = backend.get_array_module(x)
    channels = x.shape[1]
    # A trailing -inf column stands in for the padding slots of the windows.
    xc = xp.concatenate((channel_major(x), xp.full((channels, 1), -numpy.inf, x.dtype)),
                        axis=1)
    index = xp.where(valid, pixel, xc.shape[1] - 1)
    y = xp.empty((channels,) + pixel.shape[:3], dtype=x.dtype)
    arg = xp.empty(y.shape, dtype=numpy.intp)
    for sl in roi_chunks(len(pixel), channels * int(numpy.prod(pixel.shape[1:]))):
        # over (C, r, outh, outw, K)
        y[:, sl], arg[:, sl] = first_max(xp.take(xc, index[sl], axis=1), xp)
    nonempty = valid.any(axis=-1)
    if empty_value != -numpy.inf:
        y = xp.where(nonempty, y, empty_value)
    winners = WinnerMap(pixel[..., None], valid[..., None].astype(x.dtype), arg, nonempty,
                        x.shape)
    y = xp.ascontiguousarray(y.transpose(1, 0, 2, 3)).astype(x.dtype, copy=False)
    return y, winners
