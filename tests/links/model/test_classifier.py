import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer import reporter as reporter_module


def _softmax_ce(y, t):
    y = y - y.max(1, keepdims=True)
    logp = y - np.log(np.exp(y).sum(1, keepdims=True))
    return -logp[np.arange(len(t)), t].mean()


def test_loss_accuracy_and_report():
    np.random.seed(0)
    model = L.Classifier(L.Linear(4, 3))
    x = np.random.randn(5, 4).astype(np.float32)
    t = np.array([0, 1, 2, 1, 0], np.int32)
    reporter = reporter_module.Reporter()
    reporter.add_observer('main', model)
    observation = {}
    with reporter.scope(observation):
        loss = model(x, t)
    y = model.predictor(x).array
    np.testing.assert_allclose(loss.array, _softmax_ce(y, t), rtol=1e-5)
    assert model.loss is loss and model.y.shape == (5, 3)
    acc = (y.argmax(1) == t).mean()
    np.testing.assert_allclose(model.accuracy.array, acc)
    assert set(observation) == {'main/loss', 'main/accuracy'}


def test_compute_accuracy_off_and_custom_functions():
    calls = []

    def lossfun(y, t):
        calls.append('loss')
        return minichainer.functions.sum(y) * 0 + 1.5

    model = L.Classifier(L.Linear(2, 2), lossfun=lossfun)
    model.compute_accuracy = False
    loss = model(np.ones((1, 2), np.float32), np.array([0], np.int32))
    assert float(loss.array) == 1.5 and model.accuracy is None and calls == ['loss']


def test_label_key():
    seen = []

    class Pred(minichainer.Chain):
        def forward(self, a, b=None):
            seen.append((a, b))
            return np.zeros((1, 2), np.float32)

    model = L.Classifier(Pred(), lossfun=lambda y, t: t, accfun=lambda y, t: t,
                         label_key='t')
    assert model(1, b=2, t=3) == 3 and seen[-1] == (1, 2)
    model = L.Classifier(Pred(), lossfun=lambda y, t: t, accfun=lambda y, t: t,
                         label_key=0)
    assert model(9, 1) == 9 and seen[-1] == (1, None)
    with pytest.raises(ValueError, match='Label key 3 is out of bounds'):
        L.Classifier(Pred(), label_key=3)(1, 2)
    with pytest.raises(ValueError, match='Label key "t" is not found'):
        L.Classifier(Pred(), label_key='t')(1, 2)
    with pytest.raises(TypeError, match='label_key must be int or str'):
        L.Classifier(Pred(), label_key=1.5)


def test_predictor_is_a_child():
    model = L.Classifier(L.Linear(2, 3))
    assert [n for n, _ in model.namedparams()] == ['/predictor/W', '/predictor/b']


def test_default_functions_are_chainers():
    import minichainer.functions as F
    model = L.Classifier(L.Linear(2, 2))
    assert model.lossfun is F.softmax_cross_entropy and model.accfun is F.accuracy


def test_npz_keys_are_chainers(tmp_path):
    from minichainer import serializers

    class MLP(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(3, 4)
                self.bn = L.BatchNormalization(4)
                self.l2 = L.Linear(None, 2)

    model = L.Classifier(MLP())
    path = str(tmp_path / 'model.npz')
    serializers.save_npz(path, model)
    with np.load(path, allow_pickle=True) as f:
        keys = sorted(f.files)
        assert f['predictor/l2/W'][()] is None
    assert keys == ['predictor/bn/N', 'predictor/bn/avg_mean', 'predictor/bn/avg_var',
                    'predictor/bn/beta', 'predictor/bn/gamma', 'predictor/l1/W',
                    'predictor/l1/b', 'predictor/l2/W', 'predictor/l2/b']


def test_predictor_replaced_by_a_mock_and_single_argument_errors():
    from unittest import mock
    import minichainer
    link = L.Classifier(minichainer.Link())
    y = minichainer.Variable(np.random.randn(5, 7).astype(np.float32))
    link.predictor = mock.MagicMock(return_value=y)
    x = np.zeros((5, 10), np.float32)
    t = np.random.randint(7, size=5).astype(np.int32)
    loss = link(x, x, t)
    link.predictor.assert_called_with(x, x)
    assert link.loss is loss and link.accuracy is not None
    with pytest.raises(TypeError):
        L.Classifier(L.Linear(10, 3))(x)


def test_called_with_the_label_only_says_so():
    model = L.Classifier(L.Linear(3, 2))
    with pytest.raises(TypeError, match=r'only argument was taken as the label.*'
                                        r'model\(x, t\)'):
        model(np.ones((2, 3), np.float32))
    keyed = L.Classifier(L.Linear(3, 2), label_key='t')
    with pytest.raises(TypeError, match="label_key='t'"):
        keyed(t=np.zeros(2, np.int32))


def test_predictor_without_inputs_is_allowed():
    class Constant(minichainer.Chain):
        def forward(self):
            return minichainer.Variable(np.array([[0.0, 1.0]], np.float32))

    model = L.Classifier(Constant())
    loss = model(np.array([1], np.int32))  # the only argument is the label
    assert float(model.accuracy.array) == 1.0
    assert loss.shape == ()
