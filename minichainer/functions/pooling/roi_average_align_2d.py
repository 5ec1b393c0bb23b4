"""ROI average align (`chainer.functions.roi_average_align_2d`)."""
from minichainer.functions.pooling import _roi


class ROIAverageAlign2D(_roi.ROIFunctionBase):
    """Mean of bilinearly interpolated samples in each bin of each ROI."""

    _name = 'roi_average_align_2d'
    _float32_only = True

    def __init__(self, outsize, spatial_scale, sampling_ratio=None):
        super().__init__(outsize, spatial_scale)
        self.sampling_ratio = _roi.parse_sampling_ratio(sampling_ratio, self._name)

    def _forward(self, x, rois, batch):
        pixel, weight, _, count = _roi.align_map(
            x.shape, rois, batch, self.spatial_scale, self.outh, self.outw,
            self.sampling_ratio)
        shape = pixel.shape[:3] + (pixel.shape[3] * pixel.shape[4],)
        weight = weight / count[:, None, None, None, None]
        smap = _roi.SampleMap(pixel.reshape(shape), weight.reshape(shape), x.shape)
        return smap.gather(x)[0], smap


def roi_average_align_2d(x, rois, roi_indices, outsize, spatial_scale,
                         sampling_ratio=None):
    """Region of Interest (ROI) average align.

    Like [`roi_average_pooling_2d`][minichainer.functions.pooling.roi_average_pooling_2d.roi_average_pooling_2d]
    but without rounding: each bin of a ROI is sampled on a regular `sampling_ratio` grid by
    bilinear interpolation and the samples are averaged.

    Args:
        x (Variable or ndarray): `(n, c, h, w)` float32 input.
        rois (Variable or ndarray): `(R, 4)` float32 boxes
            `(y_min, x_min, y_max, x_max)`.
        roi_indices (Variable or ndarray): `(R,)` int32 batch index of
            each ROI.
        outsize (int or (int, int)): output height and width.
        spatial_scale (float): factor from ROI coordinates to `x`'s pixels.
        sampling_ratio (None, int or (int, int)): samples per bin along height and
            width; `None` takes `ceil(roi_size / outsize)` for each ROI.

    Returns:
        Variable: `(R, c, outh, outw)`.

    See [Mask R-CNN](https://arxiv.org/abs/1703.06870).
    """
    return ROIAverageAlign2D(outsize, spatial_scale, sampling_ratio)(
        x, rois, roi_indices)
