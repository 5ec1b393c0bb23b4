"""The ROI functions give the same results when their work is split into ROI chunks."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.functions.pooling import _roi

from . import _roi_reference as ref


def _rois5(boxes, batch):
    return numpy.concatenate([batch[:, None].astype(boxes.dtype), boxes[:, [1, 0, 3, 2]]],
                             axis=1)


FUNCS = {
    'roi_pooling_2d': lambda x: F.roi_pooling_2d(
        x, _rois5(ref.ROIS, ref.ROI_INDICES), 2, 3, 0.8),
    'roi_max_pooling_2d': lambda x: F.roi_max_pooling_2d(
        x, ref.ROIS, ref.ROI_INDICES, (2, 3), 0.8),
    'roi_average_pooling_2d': lambda x: F.roi_average_pooling_2d(
        x, ref.ROIS, ref.ROI_INDICES, (2, 3), 0.8),
    'roi_max_align_2d': lambda x: F.roi_max_align_2d(
        x, ref.ROIS, ref.ROI_INDICES, (2, 3), 0.8),
    'roi_average_align_2d': lambda x: F.roi_average_align_2d(
        x, ref.ROIS, ref.ROI_INDICES, (2, 3), 0.8, (2, 1)),
}


def _run(func, x, gy, ggx):
    """Output, gradient and second-order gradient (d(gx . ggx)/d gy) of ``func``."""
    xv = minichainer.Variable(x)
    y = func(xv)
    gyv = minichainer.Variable(gy)
    gx, = minichainer.grad([y], [xv], grad_outputs=[gyv], enable_double_backprop=True)
    ggy, = minichainer.grad([F.sum(gx * ggx)], [gyv])
    return y.array, gx.array, ggy.array


@pytest.mark.parametrize('name', sorted(FUNCS))
def test_chunked_equals_unchunked(name, monkeypatch):
    x = ref.distinct_x((2, 3, 7, 9))
    y = FUNCS[name](x)
    rng = numpy.random.RandomState(0)
    gy = rng.uniform(-1, 1, y.shape).astype(numpy.float32)
    ggx = rng.uniform(-1, 1, x.shape).astype(numpy.float32)
    whole = _run(FUNCS[name], x, gy, ggx)
    monkeypatch.setattr(_roi, '_CHUNK_ELEMENTS', 40)  # one ROI (or row segment) a chunk
    chunked = _run(FUNCS[name], x, gy, ggx)
    for a, b in zip(whole, chunked):
        numpy.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6)
    # The gradient of a sum of outputs is not trivially zero.
    assert numpy.abs(whole[1]).sum() > 0
