"""ROI max align (``chainer.functions.roi_max_align_2d``)."""
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
        # Interpolated samples (R, outh, outw, G, C), in float64 as Chainer compares them.
        values = (_roi.SampleMap.flat(x)[pixel] * weight[..., None]).sum(axis=4)
        y, arg, nonempty = _roi.select_max(values, valid, xp)
        # The four taps of each channel's winning sample: (R, outh, outw, C, 4).
        pick = arg[..., None]
        chosen = xp.take_along_axis(pixel[:, :, :, :, None, :], pick[:, :, :, None], axis=3)
        chosen_w = xp.take_along_axis(weight[:, :, :, :, None, :], pick[:, :, :, None],
                                      axis=3)
        chosen_w = chosen_w[:, :, :, 0] * nonempty[..., None, None]
        smap = _roi.SampleMap(chosen[:, :, :, 0], chosen_w.astype(x.dtype), x.shape,
                              per_channel=True)
        y = xp.ascontiguousarray(y.transpose(0, 3, 1, 2)).astype(x.dtype)
        return y, smap


def roi_max_align_2d(x, rois, roi_indices, outsize, spatial_scale, sampling_ratio=None):
    """Region of Interest (ROI) max align.

    Like :func:`roi_max_pooling_2d` but without rounding: each bin of a ROI is sampled
    on a regular ``sampling_ratio`` grid by bilinear interpolation and the largest sample
    is kept per channel.  As in Chainer, a bin with no sample inside ``x`` gives ``-inf``.

    Args:
        x (~minichainer.Variable or ndarray): ``(n, c, h, w)`` float32 input.
        rois (~minichainer.Variable or ndarray): ``(R, 4)`` float32 boxes
            ``(y_min, x_min, y_max, x_max)``.
        roi_indices (~minichainer.Variable or ndarray): ``(R,)`` int32 batch index of
            each ROI.
        outsize (int or (int, int)): output height and width.
        spatial_scale (float): factor from ROI coordinates to ``x``'s pixels.
        sampling_ratio (None, int or (int, int)): samples per bin along height and
            width; ``None`` takes ``ceil(roi_size / outsize)`` for each ROI.

    Returns:
        ~minichainer.Variable: ``(R, c, outh, outw)``.

    See `Mask R-CNN <https://arxiv.org/abs/1703.06870>`_.
    """
    return ROIMaxAlign2D(outsize, spatial_scale, sampling_ratio)(x, rois, roi_indices)
