import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.functions.pooling import roi_max_align_2d as mod
from minichainer.utils import type_check

from . import _roi_reference as ref


@pytest.mark.parametrize('sampling_ratio', [None, 1, 2, (1, 3)])
@pytest.mark.parametrize('outsize, scale', [((3, 4), 0.6), (2, 1.0), ((5, 7), 0.5)])
def test_forward_matches_reference(sampling_ratio, outsize, scale):
    x = ref.distinct_x((2, 3, 7, 9))
    y = F.roi_max_align_2d(x, ref.ROIS, ref.ROI_INDICES, outsize, scale, sampling_ratio)
    expected = ref.align(x, ref.ROIS, ref.ROI_INDICES, outsize, scale, sampling_ratio, 'max')
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_matches_chainer():
    y = F.roi_max_align_2d(ref.CHAINER_X, ref.CHAINER_ROIS, ref.CHAINER_ROI_INDICES,
                           (2, 3), 0.8)
    expected = [[[[1.058333, 1.749, 2.02964], [1.784334, 2.475, 1.88268]],
                 [[1.818867, 1.049, 1.739667], [1.810333, 1.775, 2.465667]]],
                [[[2.233333, 2.753333, 2.16], [2.653334, 2.553333, 2.016]],
                 [[2.413334, 2.053333, 2.8], [2.42, 2.06, 2.6]]],
                [[[0.529833, 0.665, 0.898333], [1.028167, 1.215, 1.448333]],
                 [[2.676667, 2.0265, 1.278167], [1.676667, 1.4915, 1.259833]]]]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_gradient_goes_to_the_winning_sample():
    # Two samples per bin at x = 0.25 and x = 0.75 on one row; channel 0 increases
    # along x, channel 1 decreases, so the winners differ per channel.
    x = numpy.array([[[[0., 4.]], [[4., 0.]]]], numpy.float32)
    xv = minichainer.Variable(x)
    rois = numpy.array([[0., 0., 1., 1.]], numpy.float32)
    y = F.roi_max_align_2d(xv, rois, numpy.zeros(1, numpy.int32), 1, 1., (1, 2))
    numpy.testing.assert_allclose(y.array.ravel(), [3., 3.])
    y.grad = numpy.array([[[[1.]], [[2.]]]], numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(xv.grad, [[[[.25, .75]], [[1.5, .5]]]])


def test_bin_outside_is_minus_inf():
    x = ref.distinct_x((1, 2, 4, 4))
    rois = numpy.array([[6, 6, 9, 9]], numpy.float32)
    y = F.roi_max_align_2d(x, rois, numpy.zeros(1, numpy.int32), 2, 1.)
    assert numpy.isneginf(y.array).all()


@pytest.mark.parametrize('sampling_ratio', [None, (2, 1)])
def test_gradients(sampling_ratio):
    x = ref.distinct_x((2, 3, 7, 9))
    rois, index = ref.ROIS[:3], ref.ROI_INDICES[:3]  # every bin has a sample inside

    def f(x):
        return F.roi_max_align_2d(x, rois, index, (2, 3), 0.8, sampling_ratio)
    ref.check_roi_grads(f, x, len(rois), (2, 3), atol=5e-4, rtol=5e-3)


def test_class_call():
    x = ref.distinct_x((2, 3, 7, 9))
    f = mod.ROIMaxAlign2D(3, 0.5, (1, 2))
    assert (f.outh, f.outw, f.sampling_ratio) == (3, 3, (1, 2))
    numpy.testing.assert_array_equal(
        f(x, ref.ROIS, ref.ROI_INDICES).array,
        F.roi_max_align_2d(x, ref.ROIS, ref.ROI_INDICES, 3, 0.5, (1, 2)).array)


@pytest.mark.parametrize('kwargs, error', [
    ({'outsize': 1.5}, TypeError), ({'outsize': (1, 2, 3)}, ValueError),
    ({'spatial_scale': None}, TypeError), ({'sampling_ratio': -1}, TypeError)])
def test_invalid_arguments(kwargs, error):
    args = dict(outsize=2, spatial_scale=1., sampling_ratio=None)
    args.update(kwargs)
    x = ref.distinct_x((1, 2, 4, 4))
    with pytest.raises(error, match='roi_max_align_2d'):
        F.roi_max_align_2d(x, ref.ROIS[:1], ref.ROI_INDICES[:1], **args)


def test_invalid_inputs():
    x = ref.distinct_x((1, 2, 4, 4))
    with pytest.raises(ValueError, match='roi_indices'):
        F.roi_max_align_2d(x, ref.ROIS[:1], numpy.array([3], numpy.int32), 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_max_align_2d(x.astype(numpy.float16), ref.ROIS[:1], ref.ROI_INDICES[:1], 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_max_align_2d(x, ref.ROIS[0], ref.ROI_INDICES[:1], 2, 1.)
