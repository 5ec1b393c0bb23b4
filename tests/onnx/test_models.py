"""Whole models exported once with a dynamic batch (``input_shapes`` with a named first
axis) and run in ONNX Runtime at two batch sizes, compared with minichainer's forward in
test mode.

Tolerance: rtol 1e-4 and an absolute tolerance of 1e-5 times the largest magnitude of
the reference output (random-weight deep networks give outputs far from 1, where a fixed
atol would be either vacuous or too tight).  The vision models use random weights
(``pretrained_model=None``, no download); ResNet-50 runs at 64x64 (its global pooling
takes any size), VGG16 and GoogLeNet at 224x224 (their fully connected layers fix it).
"""

import numpy
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L

onnx = pytest.importorskip('onnx')
pytest.importorskip('onnxruntime')

import minichainer.onnx as oc  # noqa: E402


def _check(ort_session, model, args, batches=(1, 3), input_names=None, seed=0):
    """Export `model` once on `args` (arrays whose first axis is the batch) with that
    axis dynamic, then compare ONNX Runtime and minichainer at each batch size in
    `batches` on fresh inputs made by `args`' generators."""
    shapes = [('batch',) + a.shape[1:] for a in args]
    proto = oc.export(model, list(args), input_shapes=shapes)
    for value in proto.graph.input:
        if value.name.startswith('Input_'):
            assert value.type.tensor_type.shape.dim[0].dim_param == 'batch'
    for value in proto.graph.output:
        assert value.type.tensor_type.shape.dim[0].dim_param == 'batch'
    session = ort_session(proto)
    names = [i.name for i in session.get_inputs()]
    rng = numpy.random.RandomState(seed)
    for batch in batches:
        feeds = []
        for a in args:
            if a.dtype.kind == 'f':
                feeds.append(rng.uniform(-1, 1, (batch,) + a.shape[1:]).astype(a.dtype))
            else:
                feeds.append(rng.randint(0, int(a.max()) + 1, (batch,) + a.shape[1:])
                             .astype(a.dtype))
        actual = session.run(None, dict(zip(names, feeds)))
        with minichainer.using_config('train', False), minichainer.no_backprop_mode():
            expected = model(*feeds)
        if not isinstance(expected, (list, tuple)):
            expected = [expected]
        assert len(actual) == len(expected)
        for a, e in zip(actual, expected):
            e = e.array
            assert a.shape == e.shape
            numpy.testing.assert_allclose(a, e, rtol=1e-4,
                                          atol=1e-5 * float(numpy.abs(e).max()))
    return proto


class _Layer(minichainer.Chain):
    """`model(x, layers=[name])[name]` of a vision model, as a one-output link."""

    def __init__(self, model, name):
        super().__init__()
        with self.init_scope():
            self.model = model
        self.layer = name

    def forward(self, x):
        return self.model(x, layers=[self.layer])[self.layer]


def test_mnist_mlp(ort_session):
    class MLP(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(None, 100)
                self.l2 = L.Linear(None, 100)
                self.l3 = L.Linear(None, 10)

        def forward(self, x):
            return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))
    model = L.Classifier(MLP()).predictor
    model(numpy.zeros((1, 784), numpy.float32))
    proto = _check(ort_session, model, [numpy.zeros((2, 784), numpy.float32)])
    assert [t.name for t in proto.graph.initializer] == [
        'param_l1_W', 'param_l1_b', 'param_l2_W', 'param_l2_b', 'param_l3_W', 'param_l3_b']


def test_convnet_with_batch_normalization_in_test_mode(ort_session):
    class ConvNet(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.c1 = L.Convolution2D(3, 8, 3, pad=1)
                self.b1 = L.BatchNormalization(8)
                self.c2 = L.Convolution2D(8, 16, 3, stride=2)
                self.b2 = L.BatchNormalization(16)
                self.fc = L.Linear(None, 5)

        def forward(self, x):
            h = F.max_pooling_2d(F.relu(self.b1(self.c1(x))), 2)
            h = F.average_pooling_2d(F.relu(self.b2(self.c2(h))), 2)
            return F.softmax(self.fc(F.dropout(h)))
    model = ConvNet()
    rng = numpy.random.RandomState(1)
    for bn in (model.b1, model.b2):
        n = bn.avg_mean.size
        bn.avg_mean[...] = rng.uniform(-1, 1, n)
        bn.avg_var[...] = rng.uniform(0.5, 2, n)
        bn.gamma.array[...] = rng.uniform(0.5, 2, n)
        bn.beta.array[...] = rng.uniform(-1, 1, n)
    x = numpy.zeros((2, 3, 16, 16), numpy.float32)
    model(x)
    proto = _check(ort_session, model, [x])
    ops = [n.op_type for n in proto.graph.node]
    assert ops.count('BatchNormalization') == 2 and 'Dropout' not in ops
    names = {t.name for t in proto.graph.initializer}
    assert {'param_b1_avg_mean', 'param_b1_avg_var', 'param_b2_gamma'} <= names


def test_lstm_language_model_unrolled(ort_session):
    vocab, units, length = 20, 16, 5

    class LM(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.embed = L.EmbedID(vocab, units)
                self.rnn = L.LSTM(units, units)
                self.out = L.Linear(units, vocab)

        def forward(self, words, h0, c0):
            self.rnn.set_state(minichainer.as_variable(c0), minichainer.as_variable(h0))
            ys = [self.out(self.rnn(self.embed(words[:, t]))) for t in range(length)]
            return F.stack(ys, axis=1), self.rnn.h, self.rnn.c
    words = numpy.full((2, length), vocab - 1, numpy.int32)
    h0 = numpy.zeros((2, units), numpy.float32)
    _check(ort_session, LM(), [words, h0, h0.copy()])


@pytest.fixture(scope='module')
def resnet50():
    return L.ResNet50Layers(pretrained_model=None)


def test_resnet50(ort_session, resnet50):
    proto = _check(ort_session, _Layer(resnet50, 'fc6'),
                   [numpy.zeros((1, 3, 64, 64), numpy.float32)], batches=(1, 2))
    assert sum(n.op_type == 'Conv' for n in proto.graph.node) == 53


def test_googlenet(ort_session):
    model = L.GoogLeNet(pretrained_model=None)
    _check(ort_session, _Layer(model, 'loss3_fc'),
           [numpy.zeros((1, 3, 224, 224), numpy.float32)], batches=(1, 2))


@pytest.mark.slow
def test_vgg16(ort_session):
    # 138M parameters: drawing them dominates; the export and ONNX Runtime take seconds
    model = L.VGG16Layers(pretrained_model=None)
    _check(ort_session, _Layer(model, 'fc8'),
           [numpy.zeros((1, 3, 224, 224), numpy.float32)], batches=(1, 2))
