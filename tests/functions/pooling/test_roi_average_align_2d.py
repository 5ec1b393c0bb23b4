import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.functions.pooling import roi_average_align_2d as mod
from minichainer.utils import type_check

from . import _roi_reference as ref


@pytest.mark.parametrize('sampling_ratio', [None, 1, 2, (1, 3)])
@pytest.mark.parametrize('outsize, scale', [((3, 4), 0.6), (2, 1.0), ((5, 7), 0.5)])
def test_forward_matches_reference(sampling_ratio, outsize, scale):
    x = ref.distinct_x((2, 3, 7, 9))
    y = F.roi_average_align_2d(x, ref.ROIS, ref.ROI_INDICES, outsize, scale, sampling_ratio)
    expected = ref.align(x, ref.ROIS, ref.ROI_INDICES, outsize, scale, sampling_ratio, 'avg')
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_matches_chainer():
    y = F.roi_average_align_2d(ref.CHAINER_X, ref.CHAINER_ROIS, ref.CHAINER_ROI_INDICES,
                               (2, 3), 0.8, (2, 1))
    expected = [[[[0.9919, 1.386, 1.871653], [1.704653, 1.8615, 1.66598]],
                 [[1.67326, 0.9898, 1.376667], [1.472753, 1.70834, 1.852167]]],
                [[[1.606, 1.63, 1.116667], [1.813333, 1.61, 1.386]],
                 [[1.464, 1.426, 1.863333], [1.754, 1.53, 1.843333]]],
                [[[0.638333, 0.746375, 0.940958], [1.028167, 1.215, 1.448333]],
                 [[2.560417, 1.98, 1.309167], [1.676667, 1.4915, 1.259833]]]]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)


def test_bilinear_sample_and_its_gradient():
    # One sample at the centre of a 1x1 bin: (y, x) = (1.25, 0.5) on a 3x2 map.
    x = numpy.arange(6, dtype=numpy.float32).reshape(1, 1, 3, 2)
    xv = minichainer.Variable(x)
    rois = numpy.array([[0.75, 0., 1.75, 1.]], numpy.float32)
    y = F.roi_average_align_2d(xv, rois, numpy.zeros(1, numpy.int32), 1, 1., 1)
    numpy.testing.assert_allclose(y.array.ravel(), [1.25 * 2 + 0.5])
    y.grad = numpy.ones((1, 1, 1, 1), numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(xv.grad[0, 0], [[0, 0], [.375, .375], [.125, .125]])


@pytest.mark.parametrize('sampling_ratio', [None, (2, 1)])
def test_gradients(sampling_ratio):
    x = ref.distinct_x((2, 3, 7, 9))

    def f(x):
        return F.roi_average_align_2d(x, ref.ROIS, ref.ROI_INDICES, (2, 3), 0.8,
                                      sampling_ratio)
    ref.check_roi_grads(f, x, len(ref.ROIS), (2, 3), atol=5e-4, rtol=5e-3)


def test_class_call_and_empty_rois():
    x = ref.distinct_x((1, 2, 4, 4))
    f = mod.ROIAverageAlign2D((2, 3), 1, 2)
    assert f.sampling_ratio == (2, 2)
    xv = minichainer.Variable(x)
    y = f(xv, numpy.zeros((0, 4), numpy.float32), numpy.zeros(0, numpy.int32))
    assert y.shape == (0, 2, 2, 3)
    y.grad = numpy.zeros(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(xv.grad, numpy.zeros_like(x))


@pytest.mark.parametrize('kwargs', [
    {'outsize': 0}, {'outsize': (2, -1)}, {'spatial_scale': -0.5},
    {'sampling_ratio': 0}, {'sampling_ratio': (2, 1.5)}, {'sampling_ratio': 'a'}])
def test_invalid_arguments(kwargs):
    args = dict(outsize=2, spatial_scale=1., sampling_ratio=None)
    args.update(kwargs)
    x = ref.distinct_x((1, 2, 4, 4))
    with pytest.raises(TypeError, match='roi_average_align_2d'):
        F.roi_average_align_2d(x, ref.ROIS[:1], ref.ROI_INDICES[:1], **args)


def test_float32_only():
    x = ref.distinct_x((1, 2, 4, 4), dtype=numpy.float64)
    with pytest.raises(type_check.InvalidType):
        F.roi_average_align_2d(x, ref.ROIS[:1].astype(numpy.float64), ref.ROI_INDICES[:1],
                               2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_average_align_2d(x.astype(numpy.float32), ref.ROIS[:1].astype(numpy.float16),
                               ref.ROI_INDICES[:1], 2, 1.)


def test_numpy_scalars_and_sequences_as_arguments():
    x = ref.distinct_x((2, 3, 7, 9))
    y = F.roi_average_align_2d(x, ref.ROIS, ref.ROI_INDICES, numpy.array([2, 3]),
                               numpy.float32(0.5), [numpy.int32(1), 2])
    expected = F.roi_average_align_2d(x, ref.ROIS, ref.ROI_INDICES, (2, 3), 0.5, (1, 2))
    numpy.testing.assert_array_equal(y.array, expected.array)
