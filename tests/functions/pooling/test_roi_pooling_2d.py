import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.functions.pooling import roi_pooling_2d as mod
from minichainer.utils import type_check

from . import _roi_reference as ref


def _rois5(boxes, batch):
    """(batch_index, x_min, y_min, x_max, y_max) rows from (y_min, x_min, y_max, x_max)."""
    return numpy.concatenate([batch[:, None].astype(boxes.dtype), boxes[:, [1, 0, 3, 2]]],
                             axis=1)


@pytest.mark.parametrize('outsize, scale, dtype', ref.POOLING_CASES)
def test_forward_matches_reference(outsize, scale, dtype):
    x = ref.distinct_x((2, 3, 7, 9), dtype=dtype)
    rois = ref.ROIS.astype(dtype)
    y = F.roi_pooling_2d(x, _rois5(rois, ref.ROI_INDICES), outsize[0], outsize[1], scale)
    expected = ref.quantized_pool(x, rois, ref.ROI_INDICES, outsize, scale, numpy.max,
                                  inclusive=True, empty=0.)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expected.astype(dtype))


def test_matches_chainer():
    rois = _rois5(ref.CHAINER_ROIS, ref.CHAINER_ROI_INDICES)
    y = F.roi_pooling_2d(ref.CHAINER_X, rois, 2, 3, 0.8)
    expected = [[[[2.4, 1.8, 2.5], [2.6, 2.9, 2.9]], [[2.8, 2.4, 1.8], [2.6, 2.6, 2.9]]],
                [[[2.5, 2.8, 2.6], [2.7, 3., 2.6]], [[2.9, 2.8, 2.8], [2.9, 3., 3.]]],
                [[[0.4] * 3] * 2, [[2.8] * 3] * 2]]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)


def test_empty_bins_are_zero_without_gradient():
    x = ref.distinct_x((1, 2, 4, 4))
    xv = minichainer.Variable(x)
    rois = numpy.array([[0, 10, 10, 12, 12]], numpy.float32)
    y = F.roi_pooling_2d(xv, rois, 2, 2, 1.)
    numpy.testing.assert_array_equal(y.array, numpy.zeros((1, 2, 2, 2)))
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(xv.grad, numpy.zeros_like(x))


@pytest.mark.parametrize('outsize', [(2, 3), (1, 1)])
def test_gradients(outsize):
    x = ref.distinct_x((2, 3, 7, 9), dtype=numpy.float64)
    rois = _rois5(ref.ROIS.astype(numpy.float64), ref.ROI_INDICES)

    def f(x):
        return F.roi_pooling_2d(x, rois, outsize[0], outsize[1], 0.8)
    ref.check_roi_grads(f, x, len(rois), outsize, eps=1e-4, atol=1e-6, rtol=1e-5)


def test_class_call():
    x = ref.distinct_x((2, 3, 7, 9))
    rois = _rois5(ref.ROIS, ref.ROI_INDICES)
    y = mod.ROIPooling2D(3, 2, 0.5)(x, rois)
    numpy.testing.assert_array_equal(y.array, F.roi_pooling_2d(x, rois, 3, 2, 0.5).array)


@pytest.mark.parametrize('outh, outw, scale, error', [
    (0, 2, 1., TypeError), (2, 2.5, 1., TypeError), (2, 2, 0, TypeError)])
def test_invalid_arguments(outh, outw, scale, error):
    x = ref.distinct_x((1, 2, 4, 4))
    with pytest.raises(error, match='roi_pooling_2d'):
        F.roi_pooling_2d(x, numpy.zeros((1, 5), numpy.float32), outh, outw, scale)


def test_invalid_inputs():
    x = ref.distinct_x((2, 2, 4, 4))
    with pytest.raises(ValueError, match=r'rois\[:, 0\] must be in \[0, 2\).*got 2'):
        F.roi_pooling_2d(x, numpy.array([[2, 0, 0, 1, 1]], numpy.float32), 2, 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_pooling_2d(x, numpy.zeros((1, 4), numpy.float32), 2, 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_pooling_2d(x, numpy.zeros((1, 5), numpy.float64), 2, 2, 1.)
