"""ROI max pooling (`chainer.functions.roi_max_pooling_2d`)."""
import numpy

from minichainer.functions.pooling import _roi


class ROIMaxPooling2D(_roi.QuantizedROIBase):
    """Maximum of `x` over the integer bins of each ROI (empty bins give -inf)."""

    _name = 'roi_max_pooling_2d'

    def __init__(self, outsize, spatial_scale):
        super().__init__(outsize, spatial_scale)

    def _forward(self, x, rois, batch):
        pixel, valid, _ = self._bins(x.shape, rois, batch)
        return _roi.max_over_windows(x, pixel, valid, -numpy.inf)


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Region of Interest (ROI) max pooling.

    Each ROI is rounded to integer pixels after scaling by `spatial_scale`, split into
    `outsize` bins, and the maximum of every bin is taken per channel.  As in Chainer,
    a bin that falls outside `x` gives `-inf` (and no gradient).  The arguments are
    those of [`roi_average_pooling_2d`][minichainer.functions.pooling.roi_average_pooling_2d.roi_average_pooling_2d]:
    `x` `(n, c, h, w)`, `rois` `(R, 4)` rows `(y_min, x_min, y_max, x_max)` of `x`'s dtype, int32
    `roi_indices` `(R,)`, `outsize` an int or a pair, `spatial_scale` a positive float.

    Returns:
        Variable: `(R, c, outh, outw)`.

    See [Fast R-CNN](https://arxiv.org/abs/1504.08083).
    """
    return ROIMaxPooling2D(outsize, spatial_scale)(x, rois, roi_indices)
