"""Fixtures of the ONNX exporter tests: `onnx_roundtrip` (export at every opset, check,
run in ONNX Runtime, compare) and `ort_session`."""
import warnings

import numpy
import pytest

import minichainer


def _modules():
    onnx = pytest.importorskip('onnx')
    ort = pytest.importorskip('onnxruntime')
    return onnx, ort


def _session(model_proto):
    _, ort = _modules()
    options = ort.SessionOptions()
    options.intra_op_num_threads = 1
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    return ort.InferenceSession(model_proto.SerializeToString(), options,
                                providers=['CPUExecutionProvider'])


@pytest.fixture
def ort_session():
    """`ort_session(model_proto)`: a one-thread ONNX Runtime CPU session."""
    _modules()
    return _session


def _arrays(outputs):
    if isinstance(outputs, dict):
        outputs = list(outputs.values())
    if not isinstance(outputs, (tuple, list)):
        outputs = (outputs,)
    return [o.array if isinstance(o, minichainer.Variable) else numpy.asarray(o)
            for o in outputs]


def roundtrip(model, args, opsets=None, rtol=1e-4, atol=1e-5, train=False, **kwargs):
    """Export `model` on `args` (a list) at each opset of `opsets` (default: every opset
    from the minimum to the maximum), check it (`check_model(full_check=True)` and
    strict shape inference), run it in ONNX Runtime and compare with minichainer's
    forward; returns `{opset: model_proto}`."""
    onnx, _ = _modules()
    import minichainer.onnx as oc
    if not isinstance(model, minichainer.Link):
        model = minichainer.Sequential(model)
    with minichainer.using_config('train', train):
        expected = _arrays(model(*args))
    opsets = range(oc.MINIMUM_OPSET_VERSION, oc.MAXIMUM_OPSET_VERSION + 1) \
        if opsets is None else opsets
    protos = {}
    for opset in opsets:
        with warnings.catch_warnings():
            warnings.simplefilter('error', UserWarning)
            proto = oc.export(model, list(args), opset_version=opset, train=train, **kwargs)
        onnx.checker.check_model(proto, full_check=True)
        onnx.shape_inference.infer_shapes(proto, check_type=True, strict_mode=True)
        assert proto.opset_import[0].version == opset
        initializers = {t.name for t in proto.graph.initializer}
        names = [i.name for i in proto.graph.input if i.name not in initializers]
        feeds = {n: (a.array if isinstance(a, minichainer.Variable) else numpy.asarray(a))
                 for n, a in zip(names, args)}
        actual = _session(proto).run(None, feeds)
        assert len(actual) == len(expected)
        for e, a in zip(expected, actual):
            assert a.shape == e.shape, (opset, a.shape, e.shape)
            assert a.dtype == e.dtype, (opset, a.dtype, e.dtype)
            numpy.testing.assert_allclose(a, e, rtol=rtol, atol=atol,
                                          err_msg='opset {}'.format(opset))
        protos[opset] = proto
    return protos


@pytest.fixture
def onnx_roundtrip():
    """The `roundtrip(model, args, opsets=None, rtol=1e-4, atol=1e-5, train=False,
    **export_kwargs)` helper (see this module)."""
    _modules()
    return roundtrip
