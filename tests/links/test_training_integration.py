import numpy as np

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import optimizers


class MLP(minichainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 8)
            self.bn = L.BatchNormalization(8)
            self.l2 = L.Linear(8, 3)

    def forward(self, x):
        return self.l2(F.relu(self.bn(self.l1(x))))


def test_classifier_trains_and_frozen_layer_stays_fixed():
    rng = np.random.RandomState(0)
    x = rng.randn(60, 4).astype(np.float32)
    t = (x[:, 0] > 0).astype(np.int32) + (x[:, 1] > 0).astype(np.int32)
    np.random.seed(0)
    model = L.Classifier(MLP())
    model(x, t)  # materialize the lazy l1
    opt = optimizers.Adam(0.05)
    opt.setup(model)
    model.predictor.l2.disable_update()
    frozen = model.predictor.l2.W.array.copy()
    first = None
    for _ in range(30):
        model.cleargrads()
        loss = model(x, t)
        loss.backward()
        opt.update()
        first = float(loss.array) if first is None else first
    assert float(model.loss.array) < 0.5 * first
    np.testing.assert_array_equal(model.predictor.l2.W.array, frozen)
    assert model.predictor.bn.avg_mean.any()
