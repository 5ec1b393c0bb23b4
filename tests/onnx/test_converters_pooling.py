"""Round trips of the pooling converters through ONNX Runtime.

Each case exports a one-function model at every opset from the oldest to the newest,
checks it with `onnx.checker.check_model(full_check=True)` and compares ONNX Runtime's
outputs with minichainer's forward to float32 tolerance (rtol 1e-4, atol 1e-5: averages and
the overlapping sums of unpooling are added in another order by ONNX Runtime); max
pooling selects values, so it must be exact.
"""
import numpy
import pytest

onnx = pytest.importorskip('onnx')
ort = pytest.importorskip('onnxruntime')

import minichainer  # noqa: E402
import minichainer.functions as F  # noqa: E402
from minichainer.onnx import export  # noqa: E402
from minichainer.onnx.export import MAXIMUM_OPSET_VERSION  # noqa: E402
from minichainer.onnx.export import MINIMUM_OPSET_VERSION  # noqa: E402

from _onnx_roundtrip import _session  # noqa: E402
from _onnx_roundtrip import roundtrip_function as roundtrip  # noqa: E402

MIN, MAX = MINIMUM_OPSET_VERSION, MAXIMUM_OPSET_VERSION
#: every opset
CHANGES = list(range(MIN, MAX + 1))


def _x(*shape, dtype=numpy.float32):
    return numpy.asarray(numpy.arange(numpy.prod(shape), dtype=numpy.float64).reshape(shape)
                         * 0.5 - 3).astype(dtype)


def _rand(*shape, seed=0):
    return numpy.random.RandomState(seed).standard_normal(shape).astype(numpy.float32)


@pytest.mark.parametrize('args', [(2, 1, 0), (3, 2, 1), ((3, 2), (1, 2), (1, 0)), (2,)])
def test_average_pooling_2d(args):
    roundtrip(lambda x: F.average_pooling_2d(x, *args), _rand(2, 3, 6, 7),
              ops=['AveragePool'])


@pytest.mark.parametrize('shape, args, kwargs', [
    ((1, 3, 6, 6, 6), (2, 1, 1), {}),
    ((1, 3, 6, 5, 4), (3, 2, 1), {'pad_value': None}),
    ((2, 3, 7), (3, 2, 1), {}),
    ((2, 3, 7), (3, 2, 1), {'pad_value': None}),
])
def test_average_pooling_nd(shape, args, kwargs):
    roundtrip(lambda x: F.average_pooling_nd(x, *args, **kwargs), _rand(*shape),
              ops=['AveragePool'])


MAX_POOLING_2D = [
    ((2, 1, 1), False), ((3, (2, 1), 1), True), ((3, 2, 1), True), ((2, 2, 0), True),
    ((3, 3, 1), True), ((2, 2, 1), True), (((3, 2), (2, 3), (1, 0)), True), ((3,), True),
]


@pytest.mark.parametrize('args, cover_all', MAX_POOLING_2D)
def test_max_pooling_2d(args, cover_all):
    x = _rand(2, 3, 7, 5)
    # (3, 3, 1) and (2, 2, 1) with cover_all have windows in the padding only (-inf)
    roundtrip(lambda x: F.max_pooling_2d(x, *args, cover_all=cover_all), x,
              rtol=0, atol=0, ops=['MaxPool'])


@pytest.mark.parametrize('shape, args, cover_all', [
    ((1, 3, 6, 6, 6), (2, 1, 1), False),
    ((1, 3, 6, 5, 4), (3, 2, 1), True),
    ((2, 3, 7), (2, 2, 0), True),
])
def test_max_pooling_nd(shape, args, cover_all):
    roundtrip(lambda x: F.max_pooling_nd(x, *args, cover_all=cover_all), _rand(*shape),
              rtol=0, atol=0, ops=['MaxPool'])


def test_max_pooling_with_indices_is_refused():
    model = minichainer.Sequential(
        lambda x: F.max_pooling_2d(x, 2, return_indices=True)[0])
    with pytest.raises(ValueError, match='return_indices'):
        export(model, _rand(1, 1, 4, 4))


@pytest.mark.parametrize('args, kwargs', [
    ((3, None, 0), {'cover_all': False}),
    ((3, None, 0), {'cover_all': True}),
    ((2, None, 0), {}),
    ((3, 2, 1), {'cover_all': False}),
    ((3, 2, 1), {'cover_all': True}),
    (((2, 3), (1, 2), (0, 1)), {'cover_all': False}),
    ((2, 2, 0), {'outsize': (13, 11), 'cover_all': False}),   # one more than the natural
    ((3, 2, 1), {'outsize': (10, 8), 'cover_all': True}),
])
def test_unpooling_2d(args, kwargs):
    roundtrip(lambda x: F.unpooling_2d(x, *args, **kwargs), _rand(2, 3, 6, 5),
              ops=['ConvTranspose'])


@pytest.mark.parametrize('shape, args, kwargs', [
    ((2, 3, 5), (2, None, 0), {}),
    ((1, 2, 3, 4, 3), (3, 2, 1), {'cover_all': False}),
    ((1, 2, 3, 4, 3), (2, None, 0), {'cover_all': True}),
])
def test_unpooling_nd(shape, args, kwargs):
    roundtrip(lambda x: F.unpooling_nd(x, *args, **kwargs), _rand(*shape),
              ops=['ConvTranspose'])


def test_roi_pooling_2d_as_max_roi_pool():
    # positive inputs: ONNX Runtime's MaxRoiPool clamps a bin's maximum at 0
    x = numpy.abs(_rand(3, 3, 12, 8)) + 0.1
    with pytest.warns(UserWarning, match='MaxRoiPool'):
        roundtrip(lambda x, r: F.roi_pooling_2d(x, r, 3, 7, 0.6), x, ROIS, rtol=0, atol=0,
                  warns=True, ops=['MaxRoiPool'], opsets=range(MIN, 22))


ROIS = numpy.array([[0, 1, 1, 6, 6], [2, 6, 2, 7, 11], [1, 3, 1, 5, 10], [0, 3, 3, 3, 3],
                    [1, 7, 0, 12, 30], [2, 14, 20, 15, 21]], dtype=numpy.float32)


@pytest.mark.parametrize('outh, outw, scale', [(3, 7, 0.6), (2, 2, 1.0), (4, 3, 0.25)])
def test_roi_pooling_2d_from_opset_22(outh, outw, scale):
    # ONNX Runtime has no MaxRoiPool-22: exported as masks, exact even where bins are
    # empty (0), outside the map, or hold negative values only
    x = _rand(3, 3, 12, 8)
    roundtrip(lambda x, r: F.roi_pooling_2d(x, r, outh, outw, scale), x, ROIS, rtol=0,
              atol=0, opsets=range(22, MAX + 1), ops=['ReduceMax'])


def test_dynamic_batch():
    def fn(x):
        h = F.max_pooling_2d(x, 3, 2, 1)                       # -inf windows included
        h = F.unpooling_2d(F.average_pooling_2d(h, 2), 2, cover_all=False)
        return F.max_pooling_nd(h, 2, cover_all=False) + F.average_pooling_nd(h, 2)
    model = minichainer.Sequential(fn)
    x = _rand(2, 3, 6, 7)
    for opset in (MIN, 13, MAX):
        model_proto = export(model, x, opset_version=opset, input_shapes=[('b', 3, 6, 7)])
        for b in (1, 5):
            xb = _rand(b, 3, 6, 7, seed=b)
            y, = _session(model_proto).run(None, {model_proto.graph.input[0].name: xb})
            numpy.testing.assert_allclose(y, fn(xb).array, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('outsize, scale, ratio', [((3, 2), 0.6, None), (2, 1.0, 2),
                                                   ((4, 3), 0.25, (1, 1))])
def test_roi_average_align_2d(outsize, scale, ratio):
    # boxes inside, across and outside the map (samples dropped or clamped at the border)
    x = _rand(3, 3, 12, 8)
    rois = numpy.array([[1, 1, 6, 6], [6, 2, 7, 11], [1, 3, 10, 5], [-3, -2, 4, 30],
                        [11, 7, 20, 12], [3, 3, 3, 3]], dtype=numpy.float32)
    indices = numpy.array([0, 2, 1, 0, 2, 1], numpy.int32)
    # bilinear weights in float32 (ONNX Runtime) against float64 (minichainer)
    def fn(x, r, i):
        return F.roi_average_align_2d(x, r, i, outsize, scale, ratio)
    roundtrip(fn, x, rois, indices, opsets=range(10, 22), ops=['RoiAlign'])
    # ONNX Runtime has no RoiAlign-22: from opset 22 two batched matrix products
    roundtrip(fn, x, rois, indices, opsets=range(22, MAX + 1), ops=['MatMul'])
