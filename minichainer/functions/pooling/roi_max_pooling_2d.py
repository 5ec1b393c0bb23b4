"""ROI max pooling (``chainer.functions.roi_max_pooling_2d``)."""
import numpy

from minichainer.functions.pooling import _roi


class ROIMaxPooling2D(_roi.QuantizedROIBase):
    """Maximum of ``x`` over the integer bins of each ROI (empty bins give -inf)."""

    _name = 'roi_max_pooling_2d'

    def __init__(self, outsize, spatial_scale):
        super().__init__(outsize, spatial_scale)

    def _forward(self, x, rois, batch):
        pixel, valid, _ = self._bins(x.shape, rois, batch)
        return _roi.max_over_windows(x, pixel, valid, -numpy.inf)


def roi_max_pooling_2d(x, rois, roi_indices, outsize, spatial_scale):
    """Region of Interest (ROI) max pooling.

    Each ROI is rounded to integer pixels after scaling by ``spatial_scale``, split into
    ``outsize`` bins, and the maximum of every bin is taken per channel.  As in Chainer,
    a bin that falls outside ``x`` gives ``-inf`` (and no gradient).

    Args:
        x (~minichainer.Variable or ndarray): ``(n, c, h, w)`` float input.
        rois (~minichainer.Variable or ndarray): ``(R, 4)`` boxes
            ``(y_min, x_min, y_max, x_max)``, same dtype as ``x``.
        roi_indices (~minichainer.Variable or ndarray): ``(R,)`` int32 batch index of
            each ROI.
        outsize (int or (int, int)): output height and width.
        spatial_scale (float): factor from ROI coordinates to ``x``'s pixels.

    Returns:
        ~minichainer.Variable: ``(R, c, outh, outw)``.

    See `Fast R-CNN <https://arxiv.org/abs/1504.08083>`_.
    """
    return ROIMaxPooling2D(outsize, spatial_scale)(x, rois, roi_indices)
