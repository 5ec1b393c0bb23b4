"""Round trips of the activation converters through ONNX Runtime at every opset
(rtol 1e-4, atol 1e-5)."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L

pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')


def _x(*shape, seed=0):
    return numpy.random.RandomState(seed).uniform(-3, 3, shape).astype(numpy.float32)


CASES = [
    ('relu', F.relu, 'Relu'),
    ('sigmoid', F.sigmoid, 'Sigmoid'),
    ('tanh', F.tanh, 'Tanh'),
    ('elu', lambda x: F.elu(x, alpha=0.7), 'Elu'),
    ('leaky_relu', lambda x: F.leaky_relu(x, slope=0.1), 'LeakyRelu'),
    ('clipped_relu', lambda x: F.clipped_relu(x, z=1.5), 'Clip'),
    ('relu6', F.relu6, 'Clip'),
    ('hard_sigmoid', F.hard_sigmoid, 'HardSigmoid'),
    ('softplus', F.softplus, 'Softplus'),
    ('softplus_beta', lambda x: F.softplus(x, beta=2.0), 'Softplus'),
    ('softmax', F.softmax, 'Softmax'),
    ('softmax_last_axis', lambda x: F.softmax(x, axis=-1), 'Softmax'),
    ('log_softmax', F.log_softmax, 'LogSoftmax'),
    ('log_softmax_axis2', lambda x: F.log_softmax(x, axis=2), 'LogSoftmax'),
    ('selu', F.selu, 'Elu'),
]


@pytest.mark.parametrize('name,fn,op', CASES, ids=[c[0] for c in CASES])
def test_activation_every_opset(onnx_roundtrip, name, fn, op):
    protos = onnx_roundtrip(fn, [_x(2, 3, 4, 5)])
    for proto in protos.values():
        assert op in {n.op_type for n in proto.graph.node}


def test_softmax_axis1_of_4d_before_and_after_13(onnx_roundtrip):
    # before opset 13 ONNX's Softmax flattens the axes after `axis`: the converter moves
    # Chainer's single axis last; from 13 it is one node
    protos = onnx_roundtrip(F.softmax, [_x(2, 3, 4, 5)], opsets=[12, 13])
    assert [n.op_type for n in protos[12].graph.node] == ['Transpose', 'Softmax', 'Transpose']
    assert [n.op_type for n in protos[13].graph.node] == ['Softmax']


def test_clipped_relu_bounds_are_inputs_from_11(onnx_roundtrip):
    protos = onnx_roundtrip(F.clipped_relu, [_x(3, 4) * 10], opsets=[10, 11])
    clip10 = [n for n in protos[10].graph.node if n.op_type == 'Clip'][0]
    clip11 = [n for n in protos[11].graph.node if n.op_type == 'Clip'][0]
    assert {a.name for a in clip10.attribute} == {'min', 'max'}
    assert len(clip11.input) == 3 and not clip11.attribute


@pytest.mark.parametrize('shape,w_shape', [((2, 3), (3,)), ((2, 3, 4, 5), (3,)),
                                           ((2, 3, 4, 5), (3, 4))])
def test_prelu_link_every_opset(onnx_roundtrip, shape, w_shape):
    link = L.PReLU(shape=w_shape)
    link.W.array[...] = numpy.random.RandomState(1).uniform(0.1, 0.5, w_shape)
    protos = onnx_roundtrip(link, [_x(*shape)])
    for opset, proto in protos.items():
        # before opset 9 an int64 Constant (the reshape target) is an initializer
        floats = {t.name for t in proto.graph.initializer if t.data_type == 1}
        assert floats == {'param_W'}, opset


def test_activation_float64(onnx_roundtrip):
    x = _x(2, 5).astype(numpy.float64)
    onnx_roundtrip(lambda v: F.softmax(F.tanh(v)), [x], opsets=[7, 13, 28])


def test_lstm_unit_every_opset(onnx_roundtrip, ort_session):
    import minichainer.onnx as oc

    class Model(minichainer.Chain):
        def forward(self, c, x):
            return F.lstm(c, x)
    c, x = _x(3, 5), _x(3, 20, seed=1)
    onnx_roundtrip(Model(), [c, x])
    proto = oc.export(Model(), [c, x], input_shapes=[('b', 5), ('b', 20)])
    c7, x7 = _x(7, 5, seed=2), _x(7, 20, seed=3)
    outs = ort_session(proto).run(None, {'Input_0': c7, 'Input_1': x7})
    for a, e in zip(outs, Model()(c7, x7)):
        numpy.testing.assert_allclose(a, e.array, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('beta_shape', [(3,), (3, 4)])
def test_swish_link_every_opset(onnx_roundtrip, beta_shape):
    link = L.Swish(beta_shape)
    link.beta.array[...] = numpy.random.RandomState(2).uniform(0.5, 2, beta_shape)
    onnx_roundtrip(link, [_x(2, 3, 4, 5)])


def test_crelu_and_rrelu_every_opset(onnx_roundtrip):
    onnx_roundtrip(lambda x: F.crelu(x, axis=1), [_x(2, 3, 4)])
    onnx_roundtrip(lambda x: F.crelu(x, axis=-1), [_x(2, 3, 4)], opsets=[7, 28])
    onnx_roundtrip(lambda x: F.rrelu(x, l=0.1, u=0.3), [_x(2, 3, 4)])


def test_rrelu_train_mode_is_refused():
    import minichainer.onnx as oc
    with pytest.raises(NotImplementedError, match='train mode'):
        oc.export(minichainer.Sequential(F.rrelu), _x(2, 3), train=True)
