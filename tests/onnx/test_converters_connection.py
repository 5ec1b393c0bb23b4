"""Round trips of the connection converters through ONNX Runtime.

Each case exports a one-function model at every opset from the oldest to the newest,
checks it with `onnx.checker.check_model(full_check=True)` and compares ONNX Runtime's
outputs with minichainer's forward to float32 tolerance (rtol 1e-4, atol 1e-5: sums of
products whose order differs between ONNX Runtime and minichainer). Links export their
parameters as initializers; functions given `W` and `b` as arguments take them as
graph inputs.
"""
import numpy
import pytest

onnx = pytest.importorskip('onnx')
ort = pytest.importorskip('onnxruntime')

import minichainer  # noqa: E402
import minichainer.functions as F  # noqa: E402
import minichainer.links as L  # noqa: E402
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


def _rand(*shape, dtype=numpy.float32, seed=0):
    return numpy.random.RandomState(seed).standard_normal(shape).astype(dtype)


def _link_roundtrip(link, x, **kwargs):
    model = minichainer.Sequential(link)
    model_proto = roundtrip(model, x, **kwargs)
    names = {t.name for t in model_proto.graph.initializer}
    assert {'param_0_W'} <= names or any(n.endswith('_W') for n in names), names
    return model_proto


@pytest.mark.parametrize('args, kwargs', [
    ((3, 4, 3, 1, 1), {}),
    ((3, 4, 3, 1, 2, True), {}),
    ((3, 6, 3, 1, 1), {'groups': 3}),
    ((3, 4, (3, 2), (2, 1), (1, 0)), {}),
    ((3, 4, 3, 1, 2), {'dilate': 2}),
])
def test_convolution_2d(args, kwargs):
    model_proto = _link_roundtrip(L.Convolution2D(*args, **kwargs), _rand(2, 3, 7, 6),
                                  ops=['Conv'])
    assert len(model_proto.graph.initializer) == (1 if len(args) > 5 else 2)


@pytest.mark.parametrize('stride, pad, dilate',
                         [(2, 1, 1), (3, 0, 1), (2, 1, 2), ((3, 2), 0, 1)])
def test_convolution_2d_cover_all(stride, pad, dilate):
    # cover_all: one more output where the last window would be cut short
    x, w = _rand(1, 3, 8, 7), _rand(4, 3, 3, 3, seed=1)
    y = F.convolution_2d(x, w, stride=stride, pad=pad, dilate=dilate, cover_all=True)
    assert y.shape != F.convolution_2d(x, w, stride=stride, pad=pad, dilate=dilate).shape
    roundtrip(lambda x, w: F.convolution_2d(x, w, stride=stride, pad=pad, dilate=dilate,
                                            cover_all=True), x, w, ops=['Conv'])


def test_dilated_convolution_2d():
    _link_roundtrip(L.DilatedConvolution2D(3, 4, 3, 1, 1, 2), _rand(1, 3, 7, 7), ops=['Conv'])


def test_convolution_2d_function_with_w_and_b_as_inputs():
    roundtrip(lambda x, w, b: F.convolution_2d(x, w, b, stride=2, pad=1), _rand(1, 3, 5, 5),
              _rand(4, 3, 3, 3, seed=1), _rand(4, seed=2), ops=['Conv'])


@pytest.mark.parametrize('ndim, x_shape, args, kwargs', [
    (1, (2, 3, 9), (3, 4, 3, 2, 1), {}),
    (2, (1, 2, 3, 5), (2, 4, 3, 1, 0, True), {}),
    (3, (1, 3, 5, 5, 5), (3, 4, 3, 1, 0), {}),
    (3, (1, 6, 5, 4, 5), (6, 4, 3, 1, 1), {'groups': 2}),
    (3, (1, 2, 6, 5, 4), (2, 3, 2, 2, 0), {'cover_all': True}),
    (3, (1, 2, 6, 5, 4), (2, 3, 2, 1, 1), {'dilate': (1, 2, 1)}),
])
def test_convolution_nd(ndim, x_shape, args, kwargs):
    _link_roundtrip(L.ConvolutionND(ndim, *args, **kwargs), _rand(*x_shape), ops=['Conv'])


@pytest.mark.parametrize('args, kwargs', [
    ((3, 4, 4, 2, 0), {}),
    ((3, 4, 4, 2, 0, True), {}),
    ((4, 6, 2, 2, 0, True), {'groups': 2}),
    ((3, 2, 3, 2, 1), {}),
    ((3, 2, 3, 2, 1), {'outsize': (8, 10)}),        # one less than the full size: cropped
    ((3, 2, 3, 3, 1), {'outsize': (11, 14)}),
    ((3, 2, 3, 1, 1), {'dilate': 2}),
])
def test_deconvolution_2d(args, kwargs):
    x = _rand(2, args[0], 5, 6)
    _link_roundtrip(L.Deconvolution2D(*args, **kwargs), x, ops=['ConvTranspose'])


@pytest.mark.parametrize('ndim, x_shape, args, kwargs', [
    (1, (2, 3, 6), (3, 2, 3, 2, 1), {}),
    (2, (1, 3, 5, 5), (3, 3, 2, 2, 0, True), {}),
    (2, (1, 6, 5, 5), (6, 4, 2, 2, 0, True), {'groups': 2}),
    (3, (1, 2, 3, 4, 3), (2, 2, 3, 2, 1), {'outsize': (4, 6, 4)}),
])
def test_deconvolution_nd(ndim, x_shape, args, kwargs):
    _link_roundtrip(L.DeconvolutionND(ndim, *args, **kwargs), _rand(*x_shape),
                    ops=['ConvTranspose'])


@pytest.mark.parametrize('nobias', [False, True])
def test_linear(nobias):
    model_proto = _link_roundtrip(L.Linear(10, 8, nobias=nobias), _rand(3, 10),
                                  ops=['Gemm'])
    assert len(model_proto.graph.initializer) == (1 if nobias else 2)


def test_linear_of_images_flattens_them():
    _link_roundtrip(L.Linear(None, 5), _rand(2, 3, 2, 2), ops=['Gemm'])


@pytest.mark.parametrize('dtype', [numpy.int32, numpy.int64])
def test_embed_id(dtype):
    x = numpy.array([[0, 4, 2], [1, 1, 3]], dtype=dtype)
    _link_roundtrip(L.EmbedID(5, 8), x, rtol=0, atol=0, ops=['Gather'])


def test_embed_id_with_ignore_label():
    x = numpy.array([[0, -1, 2], [-1, 1, 3]], dtype=numpy.int32)
    model_proto = _link_roundtrip(L.EmbedID(5, 8, ignore_label=-1), x, rtol=0, atol=0)
    assert 'Equal' in {n.op_type for n in model_proto.graph.node}


def test_dynamic_batch():
    # a network with every connection exported with a named batch axis, run at 1 and 5
    conv, deconv = L.Convolution2D(3, 4, 3, 2, 1), L.Deconvolution2D(4, 2, 3, 2, 1)
    conv_nd, linear, embed = L.ConvolutionND(1, 2, 3, 2), L.Linear(None, 3), L.EmbedID(4, 2)

    def fn(x):
        h = deconv(conv(x))
        h = conv_nd(F.reshape(h, (h.shape[0], 2, -1)))
        return linear(h) + F.sum(embed(numpy.array([1, 3], numpy.int32)))
    model = minichainer.Sequential(fn)
    x = _rand(2, 3, 6, 6)
    for opset in (MIN, 13, MAX):
        model_proto = export(model, x, opset_version=opset, input_shapes=[('b', 3, 6, 6)])
        for b in (1, 5):
            xb = _rand(b, 3, 6, 6, seed=b)
            y, = _session(model_proto).run(None, {model_proto.graph.input[0].name: xb})
            numpy.testing.assert_allclose(y, fn(xb).array, rtol=1e-4, atol=1e-5)
