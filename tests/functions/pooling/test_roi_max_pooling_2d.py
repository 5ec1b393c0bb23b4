import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.functions.pooling import roi_max_pooling_2d as mod
from minichainer.utils import type_check

from . import _roi_reference as ref


@pytest.mark.parametrize('outsize, scale, dtype', ref.POOLING_CASES)
def test_forward_matches_reference(outsize, scale, dtype):
    x = ref.distinct_x((2, 3, 7, 9), dtype=dtype)
    rois = ref.ROIS.astype(dtype)
    y = F.roi_max_pooling_2d(x, rois, ref.ROI_INDICES, outsize, scale)
    expected = ref.quantized_pool(x, rois, ref.ROI_INDICES, outsize, scale, numpy.max,
                                  inclusive=False, empty=-numpy.inf)
    assert y.dtype == dtype
    assert y.shape == expected.shape
    numpy.testing.assert_array_equal(y.array, expected.astype(dtype))


def test_matches_chainer():
    y = F.roi_max_pooling_2d(ref.CHAINER_X, ref.CHAINER_ROIS, ref.CHAINER_ROI_INDICES,
                             (2, 3), 0.8)
    expected = [[[[2.4, 1.1, 1.8], [1.5, 2.2, 2.9]], [[2.8, 2.4, 1.1], [2.8, 1.5, 2.2]]],
                [[[2.5, 2.8, 2.8], [2.7, 3., 3.]], [[2.5, 2.5, 2.8], [2.9, 2.7, 3.]]],
                [[[0.4] * 3] * 2, [[2.8] * 3] * 2]]
    numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)


def test_empty_bin_is_minus_inf_without_gradient():
    x = ref.distinct_x((1, 2, 4, 4))
    rois = numpy.array([[10, 10, 12, 12], [0, 0, 2, 2]], numpy.float32)
    xv = minichainer.Variable(x)
    y = F.roi_max_pooling_2d(xv, rois, numpy.zeros(2, numpy.int32), 2, 1.)
    assert numpy.isneginf(y.array[0]).all()
    assert numpy.isfinite(y.array[1]).all()
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    # Only the second ROI's 2x2 bins (one pixel each) receive gradient.
    assert xv.grad.sum() == 8
    numpy.testing.assert_array_equal(xv.grad[0, :, :2, :2], numpy.ones((2, 2, 2)))


def test_gradient_goes_to_argmax():
    x = ref.distinct_x((2, 3, 7, 9))
    xv = minichainer.Variable(x)
    y = F.roi_max_pooling_2d(xv, ref.ROIS, ref.ROI_INDICES, (2, 3), 1.)
    gy = numpy.random.RandomState(0).uniform(-1, 1, y.shape).astype(numpy.float32)
    y.grad = gy
    y.backward()
    expected = numpy.zeros_like(x)
    for r, b in enumerate(ref.ROI_INDICES):
        for c in range(3):
            for i in range(2):
                for j in range(3):
                    if numpy.isfinite(y.array[r, c, i, j]):
                        pos = numpy.argwhere(x[b, c] == y.array[r, c, i, j])[0]
                        expected[b, c, pos[0], pos[1]] += gy[r, c, i, j]
    numpy.testing.assert_allclose(xv.grad, expected, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize('outsize', [(2, 3), 1])
def test_gradients(outsize):
    x = ref.distinct_x((2, 3, 7, 9), dtype=numpy.float64)
    rois = ref.ROIS[:3].astype(numpy.float64)  # no empty (-inf) bin

    def f(x):
        return F.roi_max_pooling_2d(x, rois, ref.ROI_INDICES[:3], outsize, 0.8)
    ref.check_roi_grads(f, x, 3, outsize, eps=1e-4, atol=1e-6, rtol=1e-5)


def test_class_call_and_empty_rois():
    x = ref.distinct_x((1, 2, 4, 4))
    y = mod.ROIMaxPooling2D((2, 3), 1)(x, numpy.zeros((0, 4), numpy.float32),
                                       numpy.zeros(0, numpy.int32))
    assert y.shape == (0, 2, 2, 3)


@pytest.mark.parametrize('outsize, scale, error', [
    (0, 1., TypeError), ((2, 1.5), 1., TypeError), ((2, 2, 2), 1., ValueError),
    (2, 0., TypeError), (2, -1, TypeError), (2, '1', TypeError)])
def test_invalid_arguments(outsize, scale, error):
    x = ref.distinct_x((1, 2, 4, 4))
    with pytest.raises(error, match='roi_max_pooling_2d'):
        F.roi_max_pooling_2d(x, ref.ROIS[:1], ref.ROI_INDICES[:1], outsize, scale)


def test_invalid_inputs():
    x = ref.distinct_x((1, 2, 4, 4))
    with pytest.raises(ValueError, match=r'roi_indices must be in \[0, 1\).*got 1'):
        F.roi_max_pooling_2d(x, ref.ROIS[:2], numpy.array([0, 1], numpy.int32), 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_max_pooling_2d(x, ref.ROIS[:2].astype(numpy.float64),
                             numpy.array([0, 0], numpy.int32), 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_max_pooling_2d(x, ref.ROIS[:2], numpy.array([0, 0], numpy.int64), 2, 1.)
    with pytest.raises(type_check.InvalidType):
        F.roi_max_pooling_2d(x, ref.ROIS[:2], numpy.array([0], numpy.int32), 2, 1.)
