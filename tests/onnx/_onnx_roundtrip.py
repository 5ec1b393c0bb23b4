"""The round trip every ONNX converter test makes: export at each opset, check the model
(`check_model(full_check=True)` and strict shape inference), run it in ONNX Runtime and
compare with minichainer's forward."""
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
    # no graph fusions: the converters' own nodes are what is compared
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL
    return ort.InferenceSession(model_proto.SerializeToString(), options,
                                providers=['CPUExecutionProvider'])


def arrays(outputs):
    if isinstance(outputs, dict):
        outputs = list(outputs.values())
    if not isinstance(outputs, (tuple, list)):
        outputs = (outputs,)
    return [o.array if isinstance(o, minichainer.Variable) else numpy.asarray(o)
            for o in outputs]


def roundtrip(model, args, opsets=None, rtol=1e-4, atol=1e-5, train=False, ops=None,
              warns=None, **kwargs):
    """Export `model` on `args` (a list) at each opset of `opsets` (default: every opset
    from the minimum to the maximum), check it (`check_model(full_check=True)` and
    strict shape inference), run it in ONNX Runtime and compare with minichainer's
    forward; `ops` are op types the graph must use at the last opset; `warns` not None
    lets the export warn (a UserWarning is an error otherwise). Returns
    `{opset: model_proto}`."""
    onnx, _ = _modules()
    import minichainer.onnx as oc
    if not isinstance(model, minichainer.Link):
        model = minichainer.Sequential(model)
    with minichainer.using_config('train', train):
        expected = arrays(model(*args))
    opsets = range(oc.MINIMUM_OPSET_VERSION, oc.MAXIMUM_OPSET_VERSION + 1) \
        if opsets is None else opsets
    protos = {}
    for opset in opsets:
        with warnings.catch_warnings():
            if warns is None:
                warnings.simplefilter('error', UserWarning)
            proto = oc.export(model, list(args), opset_version=opset, train=train, **kwargs)
        onnx.checker.check_model(proto, full_check=True)
        onnx.shape_inference.infer_shapes(proto, check_type=True, strict_mode=True)
        assert proto.opset_import[0].version == opset
        initializers = {t.name for t in proto.graph.initializer}
        names = [i.name for i in proto.graph.input if i.name not in initializers]
        assert len(names) == len(args), (names, len(args))
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
    if ops is not None:
        used = {n.op_type for n in proto.graph.node}
        assert set(ops) <= used, (ops, used)
    return protos


def roundtrip_function(fn, *args, **kwargs):
    """`roundtrip` of the one-function model `fn(*args)`; returns the last model."""
    protos = roundtrip(fn, list(args), **kwargs)
    return protos[max(protos)]


