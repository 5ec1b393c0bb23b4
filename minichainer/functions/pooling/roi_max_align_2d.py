"""ROI max align (`chainer.functions.roi_max_align_2d`)."""
import numpy

from minichainer import backend
from minichainer.functions.pooling import _roi


class ROIMaxAlign2D(_roi.ROIFunctionBase):
    """Maximum of bilinearly interpolated samples in each bin of each ROI."""

    _name = 'roi_max_align_2d'
    _float32_only = True

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        super().__init__(outsize, spatial_scale)
        self.sampling_ratio = _roi.parse_sampling_ratio(sampling_ratio, self._name)

    def _forward(self, x, rois, batch):
        xp = backend.get_array_module(x)
        pixel, weight, valid, _ = _roi.align_map(
            x.shape, rois, batch, self.spatial_scale, self.outh, self.outw,
            self.sampling_ratio)
        # Interpolated samples (C, r, outh, outw, G), -inf where outside the map/grid,
        # and their per-channel maximum, a chunk of ROIs at a time.
        xc = _roi.channel_major(x)
        w = weight.astype(x.dtype)
        channels = x.shape[1]
        y = xp.empty((channels,) + pixel.shape[:3], dtype=x.dtype)
        arg = xp.empty(y.shape, dtype=numpy.intp)
        for sl in _roi.roi_chunks(len(pixel), channels * int(numpy.prod(pixel.shape[1:]))):
            values = xp.take(xc, pixel[sl, ..., 0], axis=1) * w[sl, ..., 0]
            for t in range(1, 4):
                values += xp.take(xc, pixel[sl, ..., t], axis=1) * w[sl, ..., t]
            if xp is numpy:
                values[:, ~valid[sl]] = -numpy.inf
            else:   # (a boolean-mask assignment would read the mask's count back)
                values = xp.where(valid[sl], values, -numpy.inf)
            y[:, sl], arg[:, sl] = _roi.first_max(values, xp)
        winners = _roi.WinnerMap(pixel, weight.astype(x.dtype), arg, valid.any(axis=-1),
                                 x.shape)
        y = xp.ascontiguousarray(y.transpose(1, 0, 2, 3))
        return y, winners


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale, sampling_ratio=None):
    """Region of Interest (ROI) max align.

    Like [`roi_max_pooling_2d`][minichainer.functions.pooling.roi_max_pooling_2d.roi_max_pooling_2d]
    but without rounding: each bin of a ROI is sampled on a regular `sampling_ratio` grid by
    bilinear interpolation and the largest sample is kept per channel.  As in Chainer, a bin with no
    sample inside `x` gives `-inf` (and no gradient).  The arguments are those of
    [`roi_average_align_2d`][minichainer.functions.pooling.roi_average_align_2d.roi_average_align_2d]
    (float32 `x` and `rois`; `sampling_ratio` None, an int >= 1 or a pair).

    Returns:
        Variable: `(R, c, outh, outw)`.

    See [Mask R-CNN](https://arxiv.org/abs/1703.06870).
    """
    return ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio)(x, rois, roi_indices)
