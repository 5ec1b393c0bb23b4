"""ROI pooling with the Fast R-CNN ROI layout (`chainer.functions.roi_pooling_2d`)."""
import numpy

from minichainer import backend
from minichainer.functions.pooling import _roi
from minichainer.functions.util import checks
from minichainer.utils import type_check


class ROIPooling2D(_roi.ROIFunctionBase):
    """Max pooling over the bins of ROIs given as `(batch_index, x_min, y_min, x_max, y_max)`.

    Unlike `ROIMaxPooling2D`, ROI corners are inclusive (a ROI covers
    `x_max - x_min + 1` columns) and an empty bin gives 0.
    """

    _name = 'roi_pooling_2d'

    def __init__(self, outh, outw, spatial_scale):
        self.outh, self.outw = _roi.parse_outsize((outh, outw), self._name)
        self.spatial_scale = _roi.parse_spatial_scale(spatial_scale, self._name)

    def __call__(self, x, rois):
        return self.apply((x, rois))[0]

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'rois'))
        x_type, roi_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim == 4,
            x_type.dtype == roi_type.dtype,
            roi_type.ndim == 2,
        )
        type_check.expect(
            roi_type.shape[1] == 5,
        )

    def forward(self, inputs):
        x, rois = inputs
        xp = backend.get_array_module(x)
        height, width = x.shape[2:]
        batch = rois[:, 0].astype(numpy.int64)
        if checks.values_checked(xp):
            _roi.check_batch_indices(batch, x.shape[0], 'rois[:, 0]', self._name)
        r = xp.round(rois[:, 1:].astype(numpy.float64) * self.spatial_scale)
        r = r.astype(numpy.int64)
        size_w = xp.maximum(r[:, 2] - r[:, 0] + 1, 1)
        size_h = xp.maximum(r[:, 3] - r[:, 1] + 1, 1)
        rows, row_valid, _ = _roi.quantized_bins(r[:, 1], size_h, self.outh, height, xp)
        cols, col_valid, _ = _roi.quantized_bins(r[:, 0], size_w, self.outw, width, xp)
        pixel, valid = _roi.window_map(batch, rows, row_valid, cols, col_valid,
                                       height, width)
        y, self.sample_map = _roi.max_over_windows(x, pixel, valid, 0)
        return y,

    def backward(self, indexes, grad_outputs):
        gx = _roi.ROIScatter(self.sample_map).apply(grad_outputs)[0]
        return gx, None


def roi_pooling_2d(x, rois, outh, outw, spatial_scale):
    """Region of Interest (ROI) max pooling of Fast R-CNN.

    Each ROI is scaled by `spatial_scale`, rounded to integer pixels (corners
    included), split into `outh x outw` bins and the maximum of every bin is taken per
    channel (an empty bin gives 0).

    Args:
        x (Variable or ndarray): `(n, c, h, w)` float input.
        rois (Variable or ndarray): `(R, 5)` rows
            `(batch_index, x_min, y_min, x_max, y_max)`, same dtype as `x`.
        outh (int): output height.
        outw (int): output width.
        spatial_scale (float): factor from ROI coordinates to `x`'s pixels.

    Returns:
        Variable: `(R, c, outh, outw)`.

    See [Fast R-CNN](https://arxiv.org/abs/1504.08083).
    """
    return ROIPooling2D(outh, outw, spatial_scale)(x, rois)
