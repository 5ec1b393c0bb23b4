"""Round trips of the dropout, loss, normalization and RNN converters through ONNX
Runtime at every opset (rtol 1e-4, atol 1e-5 unless a case says otherwise)."""
import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')

import minichainer.onnx as oc  # noqa: E402
from minichainer.onnx.replace_func import fake_as_funcnode  # noqa: E402


def _x(*shape, seed=0, low=-3, high=3):
    return numpy.random.RandomState(seed).uniform(low, high, shape).astype(numpy.float32)


# -- dropout ---------------------------------------------------------------------------

def test_dropout_test_mode_is_identity(onnx_roundtrip):
    # in test mode F.dropout makes no FunctionNode: the output is the input itself
    protos = onnx_roundtrip(lambda x: F.dropout(x, 0.3) * 2.0, [_x(3, 4)], opsets=[7, 28])
    assert 'Dropout' not in {n.op_type for n in protos[28].graph.node}


def test_dropout_node_every_opset(onnx_roundtrip):
    def model(x):
        with minichainer.using_config('train', True):
            return F.dropout(x, 0.0)   # ratio 0: the identity in both frameworks
    protos = onnx_roundtrip(model, [_x(3, 4)])
    for opset, proto in protos.items():
        node = [n for n in proto.graph.node if n.op_type == 'Dropout'][0]
        if opset < 12:
            assert [a.name for a in node.attribute] == ['ratio']
        else:
            assert len(node.input) == 2 and not node.attribute


def test_dropout_exported_in_train_mode_drops(ort_session):
    model = minichainer.Sequential(lambda x: F.dropout(x, 0.5))
    x = numpy.ones((200, 50), numpy.float32)
    proto = oc.export(model, x, train=True, opset_version=oc.MAXIMUM_OPSET_VERSION)
    node = [n for n in proto.graph.node if n.op_type == 'Dropout'][0]
    assert len(node.input) == 3   # ratio and training_mode
    y, = ort_session(proto).run(None, {'Input_0': x})
    assert set(numpy.unique(y)) <= {0.0, 2.0}
    assert 0.45 < (y == 0).mean() < 0.55


# -- softmax cross entropy ---------------------------------------------------------------

@pytest.mark.parametrize('kwargs', [
    {}, {'normalize': False}, {'reduce': 'no'}, {'ignore_label': 2},
    {'class_weight': numpy.array([0.5, 1, 2, 1, 0.25], numpy.float32)},
], ids=['default', 'no_normalize', 'reduce_no', 'ignore_label_in_range', 'class_weight'])
def test_softmax_cross_entropy_every_opset(onnx_roundtrip, kwargs):
    x = _x(6, 5)
    t = numpy.array([0, 2, 4, -1, 1, 2], numpy.int32)
    if kwargs.get('ignore_label') == 2:
        t[3] = 0   # -1 is a bad label there; 2 is ignored

    class Model(minichainer.Chain):
        def forward(self, x, t):
            return F.softmax_cross_entropy(x, t, **kwargs)
    onnx_roundtrip(Model(), [x, t])


def test_softmax_cross_entropy_all_ignored(onnx_roundtrip):
    onnx_roundtrip(minichainer.Sequential(F.softmax_cross_entropy),
                   [_x(2, 3), numpy.array([-1, -1], numpy.int32)], opsets=[7, 28])


def test_softmax_cross_entropy_nd_is_refused():
    model = minichainer.Sequential(F.softmax_cross_entropy)
    with pytest.raises(NotImplementedError, match='2-D'):
        oc.export(model, [_x(2, 3, 4), numpy.zeros((2, 4), numpy.int32)])


# -- batch normalization ---------------------------------------------------------------

def _bn_model(**kwargs):
    class Model(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.bn = L.BatchNormalization(4, **kwargs)

        def forward(self, x):
            return self.bn(x)
    model = Model()
    rng = numpy.random.RandomState(3)
    model.bn.avg_mean[...] = rng.uniform(-1, 1, 4)
    model.bn.avg_var[...] = rng.uniform(0.5, 2, 4)
    if model.bn.gamma is not None:
        model.bn.gamma.array[...] = rng.uniform(0.5, 2, 4)
    if model.bn.beta is not None:
        model.bn.beta.array[...] = rng.uniform(-1, 1, 4)
    return model


@pytest.mark.parametrize('kwargs', [{}, {'use_gamma': False}, {'use_beta': False}],
                         ids=['affine', 'no_gamma', 'no_beta'])
@pytest.mark.parametrize('shape', [(3, 4), (3, 4, 5, 6)], ids=['2d', '4d'])
def test_fixed_batch_normalization_link(onnx_roundtrip, kwargs, shape):
    model = _bn_model(**kwargs)
    protos = onnx_roundtrip(model, [_x(*shape)])
    for opset, proto in protos.items():
        names = {t.name for t in proto.graph.initializer}
        assert {'param_bn_avg_mean', 'param_bn_avg_var'} <= names
        node, = [n for n in proto.graph.node if n.op_type == 'BatchNormalization']
        assert list(node.input[3:]) == ['param_bn_avg_mean', 'param_bn_avg_var']
        assert ('spatial' in {a.name for a in node.attribute}) == (opset < 9)


def test_batch_normalization_train_mode_uses_batch_statistics(onnx_roundtrip):
    model = _bn_model()
    before = model.bn.avg_mean.copy(), model.bn.avg_var.copy(), model.bn.N
    x = _x(5, 4, 3, 3)
    proto = oc.export(model, x, train=True)
    # exporting changes nothing in the model (in_recomputing: no statistics update)
    numpy.testing.assert_array_equal(model.bn.avg_mean, before[0])
    numpy.testing.assert_array_equal(model.bn.avg_var, before[1])
    assert model.bn.N == before[2]
    mean = {t.name: onnx.numpy_helper.to_array(t) for t in proto.graph.initializer}
    numpy.testing.assert_allclose(mean['param_bn_avg_mean'], x.mean(axis=(0, 2, 3)),
                                  rtol=1e-6)
    onnx_roundtrip(model, [x], train=True, opsets=[7, 9, 14, 28])


def test_batch_normalization_functions_every_opset(onnx_roundtrip):
    x = _x(4, 5)
    gamma, beta = _x(5, seed=1), _x(5, seed=2)
    mean, var = _x(5, seed=3), _x(5, seed=4, low=0.5, high=2)

    class Fixed(minichainer.Chain):
        def forward(self, x, gamma, beta, mean, var):
            return F.fixed_batch_normalization(x, gamma, beta, mean, var, eps=1e-3)
    onnx_roundtrip(Fixed(), [x, gamma, beta, mean, var])

    class Implicit(minichainer.Chain):
        def forward(self, x):
            return F.fixed_batch_normalization(x, gamma, beta, mean, var)
    protos = onnx_roundtrip(Implicit(), [x], opsets=[7, 28])
    names = {t.name for t in protos[28].graph.initializer}
    assert {'FixedBatchNormalization_0_param_avg_mean',
            'FixedBatchNormalization_0_param_avg_var'} <= names
    assert len(names) == 4


def test_batch_normalization_over_other_axes(onnx_roundtrip):
    # gamma over (C, H): not ONNX's per-channel op, exported as arithmetic
    x = _x(3, 4, 5)
    gamma, beta = _x(4, 5, seed=1), _x(4, 5, seed=2)
    mean, var = _x(4, 5, seed=3), _x(4, 5, seed=4, low=0.5, high=2)

    class Model(minichainer.Chain):
        def forward(self, x):
            return F.fixed_batch_normalization(x, gamma, beta, mean, var, axis=0)
    protos = onnx_roundtrip(Model(), [x])
    assert 'BatchNormalization' not in {n.op_type for n in protos[28].graph.node}


# -- group, local response and L2 normalization -------------------------------------------

def test_group_normalization_every_opset_any_batch(onnx_roundtrip, ort_session):
    link = L.GroupNormalization(2, 6)
    link.gamma.array[...] = _x(6, seed=5)
    link.beta.array[...] = _x(6, seed=6)
    onnx_roundtrip(link, [_x(3, 6, 4, 5)])
    proto = oc.export(link, _x(3, 6, 4, 5), input_shapes=[('n', 6, 4, 5)])
    x = _x(7, 6, 4, 5, seed=9)
    y, = ort_session(proto).run(None, {'Input_0': x})
    numpy.testing.assert_allclose(y, link(x).array, rtol=1e-4, atol=1e-5)


def test_local_response_normalization_every_opset(onnx_roundtrip):
    onnx_roundtrip(lambda x: F.local_response_normalization(x, n=3, k=1, alpha=1e-2,
                                                            beta=0.75), [_x(2, 7, 3, 3)])


def test_local_response_normalization_even_n_is_refused():
    model = minichainer.Sequential(lambda x: F.local_response_normalization(x, n=4))
    with pytest.raises(NotImplementedError, match='odd n'):
        oc.export(model, _x(2, 7, 3, 3))


@pytest.mark.parametrize('axis', [1, (1, 2), -1])
def test_normalize_l2_every_opset(onnx_roundtrip, axis):
    onnx_roundtrip(lambda x: F.normalize(x, axis=axis), [_x(2, 3, 4)])


# -- RNNs ------------------------------------------------------------------------------

def _rnn_model(kind, n_layers, wrap):
    link = (L.NStepGRU if kind == 'gru' else L.NStepLSTM)(n_layers, 4, 5, 0.0)
    fn = getattr(F, 'n_step_' + kind)
    if wrap:
        fn = fake_as_funcnode(fn, 'n_step_' + kind, experimental_warning=False)

    class Model(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.rnn = link

        def forward(self, hx, *xs):
            if kind == 'gru':
                hy, ys = fn(n_layers, 0.0, hx, self.rnn.ws, self.rnn.bs, list(xs))
                return [hy] + list(ys)
            hy, cy, ys = fn(n_layers, 0.0, hx, hx * 0.5, self.rnn.ws, self.rnn.bs, list(xs))
            return [hy, cy] + list(ys)
    return Model()


@pytest.mark.parametrize('kind', ['gru', 'lstm'])
@pytest.mark.parametrize('n_layers', [1, 2])
def test_n_step_rnn_as_onnx_ops_every_opset(onnx_roundtrip, kind, n_layers):
    model = _rnn_model(kind, n_layers, wrap=True)
    rng = numpy.random.RandomState(0)
    hx = rng.randn(n_layers, 3, 5).astype(numpy.float32)
    xs = [rng.randn(3, 4).astype(numpy.float32) for _ in range(4)]
    protos = onnx_roundtrip(model, [hx] + xs)
    for proto in protos.values():
        ops = [n.op_type for n in proto.graph.node]
        assert ops.count(kind.upper()) == n_layers


def test_n_step_gru_decomposed(onnx_roundtrip):
    # not wrapped: exported as the functions it is made of
    model = _rnn_model('gru', 2, wrap=False)
    rng = numpy.random.RandomState(1)
    hx = rng.randn(2, 3, 5).astype(numpy.float32)
    xs = [rng.randn(3, 4).astype(numpy.float32) for _ in range(3)]
    protos = onnx_roundtrip(model, [hx] + xs, opsets=[7, 13, 28])
    assert 'GRU' not in {n.op_type for n in protos[28].graph.node}


def test_n_step_gru_unequal_lengths_is_refused():
    model = _rnn_model('gru', 1, wrap=True)
    hx = numpy.zeros((1, 3, 5), numpy.float32)
    xs = [numpy.zeros((3, 4), numpy.float32), numpy.zeros((2, 4), numpy.float32)]
    with pytest.raises(NotImplementedError, match='equal'):
        oc.export(model, [hx] + xs)


def test_nstep_gru_link_of_equal_lengths(onnx_roundtrip):
    # sequences already in order (longest first, here of equal length) are not permuted:
    # no Permutate nodes in the graph
    link = L.NStepGRU(2, 3, 4, 0.0)

    class Model(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.gru = link

        def forward(self, *xs):
            hy, ys = self.gru(None, list(xs))
            return [hy] + ys
    rng = numpy.random.RandomState(2)
    xs = [rng.randn(4, 3).astype(numpy.float32) for _ in range(3)]
    protos = onnx_roundtrip(Model(), xs, opsets=[7, 11, 28])
    assert not [n for n in protos[28].graph.node if n.name.startswith('Permutate')]


def test_layer_normalization_every_opset(onnx_roundtrip):
    link = L.LayerNormalization(6)
    link.gamma.array[...] = _x(6, seed=3)
    link.beta.array[...] = _x(6, seed=4)
    onnx_roundtrip(link, [_x(4, 6)])


@pytest.mark.parametrize('fn', [
    F.mean_squared_error, F.squared_error, F.mean_absolute_error, F.absolute_error,
    lambda x, t: F.huber_loss(x, t, delta=0.7),
    lambda x, t: F.huber_loss(x, t, delta=1.5, reduce='no'),
], ids=['mean_squared_error', 'squared_error', 'mean_absolute_error', 'absolute_error',
        'huber_loss', 'huber_loss_no_reduce'])
def test_regression_losses_every_opset(onnx_roundtrip, fn):
    class Model(minichainer.Chain):
        def forward(self, x, t):
            return fn(x, t)
    onnx_roundtrip(Model(), [_x(4, 5), _x(4, 5, seed=1)])


@pytest.mark.parametrize('kwargs', [{}, {'normalize': False}, {'reduce': 'no'}])
def test_sigmoid_cross_entropy_every_opset(onnx_roundtrip, kwargs):
    class Model(minichainer.Chain):
        def forward(self, x, t):
            return F.sigmoid_cross_entropy(x, t, **kwargs)
    t = numpy.array([[0, 1, -1], [1, 1, 0], [-1, 0, 1], [0, 0, 1]], numpy.int32)
    onnx_roundtrip(Model(), [_x(4, 3) * 4, t])
