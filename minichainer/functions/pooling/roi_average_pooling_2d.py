"""ROI average pooling (`chainer.functions.roi_average_pooling_2d`)."""
from minichainer.functions.pooling import _roi


class ROIAveragePooling2D(_roi.QuantizedROIBase):
    """Average of `x` over the integer bins of each ROI (empty bins give 0)."""

    _name = 'roi_average_pooling_2d'

    def __init__(self, outsize, spatial_scale):
        super().__init__(outsize, spatial_scale)

    def _forward(self, x, rois, batch):
        pixel, valid, count = self._bins(x.shape, rois, batch)
        # An empty bin has no valid pixel, so any nonzero divisor keeps its weights 0.
        weight = valid / (count + (count == 0))[..., None]
        smap = _roi.SampleMap(pixel, weight, x.shape)
        return smap.gather(x)[0], smap


def roi_average_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Region of Interest (ROI) average pooling.

    Each ROI is rounded to integer pixels after scaling by `spatial_scale`, split into
    `outsize` bins, and every bin is averaged per channel (an empty bin gives 0).

    Args:
        x (Variable or ndarray): `(n, c, h, w)` float input.
        rois (Variable or ndarray): `(R, 4)` boxes
            `(y_min, x_min, y_max, x_max)`, same dtype as `x`.
        roi_indices (Variable or ndarray): `(R,)` int32 batch index of
            each ROI.
        outsize (int or (int, int)): output height and width.
        spatial_scale (float): factor from ROI coordinates to `x`'s pixels.

    Returns:
        Variable: `(R, c, outh, outw)`.

    See [Fast R-CNN](https://arxiv.org/abs/1504.08083).
    """
    return ROIAveragePooling2D(outsize, spatial_scale)(x, rois, roi_indices)
