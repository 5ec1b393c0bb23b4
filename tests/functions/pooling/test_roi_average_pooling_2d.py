import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.functions.pooling import roi_average_pooling_2d as mod
from minichainer.utils import type_check

from . import _roi_reference as ref


@pytest.mark.parametrize('outsize, scale, dtype', ref.POOLING_CASES)
def test_forward_matches_reference(outsize, scale, dtype):
    x = ref.distinct_x((2, 3, 7, 9), dtype=dtype)
    rois = ref.ROIS.astype(dtype)
    y = F.roi_average_pooling_2d(x, rois, ref.ROI_INDICES, outsize, scale)
    expected = ref.quantized_pool(x, rois, ref.ROI_INDICES, outsize, scale, numpy.mean,
                                  inclusive=False, empty=0.)
    assert y.dtype == dtype
    tol = 2e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(y.array, expected, rtol=tol, atol=tol)


def test_matches_chainer():
    y = F.roi_average_pooling_2d(ref.CHAINER_X, ref.CHAINER_ROIS, ref.CHAINER_ROI_INDICES,
                                 (2, 3), 0.8)
    expected = [[[[1.4, 0.55, 1.25], [0.95, 1.65, 2.35]],
                 [[2.25, 1.4, 0.55], [1.8, 0.95, 1.65]]],
                [[[1.525, 1.45, 1.375], [1.433333, 1.616667, 1.8]],
                 [[1.6, 1.525, 1.45], [1.766667, 1.433333, 1.616667]]],
                [[[0.4] * 3] * 2, [[2.8] * 3] * 2]]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)


def test_backward_spreads_evenly_and_empty_bins_are_zero():
    x = ref.distinct_x((1, 1, 4, 4))
    xv = minichainer.Variable(x)
    rois = numpy.array([[0, 0, 4, 2], [10, 10, 12, 12]], numpy.float32)
    y = F.roi_average_pooling_2d(xv, rois, numpy.zeros(2, numpy.int32), (1, 1), 1.)
    assert y.array[1, 0, 0, 0] == 0
    numpy.testing.assert_allclose(y.array[0, 0, 0, 0], x[0, 0, :4, :2].mean(), rtol=1e-6)
    y.grad = numpy.array([[[[2.]]], [[[5.]]]], numpy.float32)
    y.backward()
    expected = numpy.zeros_like(x)
    expected[0, 0, :4, :2] = 2. / 8
    numpy.testing.assert_allclose(xv.grad, expected)


@pytest.mark.parametrize('outsize', [(2, 3), 1])
def test_gradients(outsize):
    x = ref.distinct_x((2, 3, 7, 9), dtype=numpy.float64)
    rois = ref.ROIS.astype(numpy.float64)

    def f(x):
        return F.roi_average_pooling_2d(x, rois, ref.ROI_INDICES, outsize, 0.8)
    ref.check_roi_grads(f, x, len(rois), outsize, atol=1e-6, rtol=1e-5)


def test_float16_backward_matches_float32():
    grads = []
    for dtype in (numpy.float16, numpy.float32):
        xv = minichainer.Variable(ref.distinct_x((1, 2, 5, 6), dtype=dtype))
        y = F.roi_average_pooling_2d(xv, ref.ROIS[:3].astype(dtype),
                                     numpy.zeros(3, numpy.int32), 2, 1.)
        y.grad = numpy.linspace(-1, 1, y.size).reshape(y.shape).astype(dtype)
        y.backward()
        assert xv.grad.dtype == dtype
        grads.append(xv.grad)
    numpy.testing.assert_allclose(grads[0], grads[1], atol=2e-3, rtol=2e-3)


def test_class_call():
    x = ref.distinct_x((2, 3, 7, 9))
    f = mod.ROIAveragePooling2D(2, 1)
    assert (f.outh, f.outw, f.spatial_scale) == (2, 2, 1.)
    y = f(x, ref.ROIS, ref.ROI_INDICES)
    numpy.testing.assert_allclose(
        y.array, F.roi_average_pooling_2d(x, ref.ROIS, ref.ROI_INDICES, 2, 1.).array)


@pytest.mark.parametrize('outsize, scale', [((0, 2), 1.), ((2, None), 1.), (2, 0)])
def test_invalid_arguments(outsize, scale):
    x = ref.distinct_x((1, 2, 4, 4))
    with pytest.raises(TypeError, match='roi_average_pooling_2d'):
        F.roi_average_pooling_2d(x, ref.ROIS[:1], ref.ROI_INDICES[:1], outsize, scale)


def test_invalid_inputs():
    x = ref.distinct_x((2, 2, 4, 4))
    with pytest.raises(ValueError, match='roi_indices'):
        F.roi_average_pooling_2d(x, ref.ROIS[:1], numpy.array([-1], numpy.int32), 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_average_pooling_2d(x, ref.ROIS[:1, :3], ref.ROI_INDICES[:1], 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_average_pooling_2d(x[0], ref.ROIS[:1], ref.ROI_INDICES[:1], 2, 1.)
