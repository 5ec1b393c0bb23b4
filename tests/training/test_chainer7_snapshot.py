"""A trainer snapshot written by the real Chainer 7.8.1 loads here and training continues.

The fixtures come from ``tests/fixtures/make_chainer7_snapshot.py``, run under Chainer
7.8.1: the snapshot after 10 iterations, and the model after iteration 11.
"""
import os

import numpy

import minichainer as chainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import training
from minichainer.training import extensions

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        'fixtures')


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 8)
            self.l2 = L.Linear(8, 3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _trainer(out, stop):
    numpy.random.seed(0)
    x = numpy.random.rand(30, 4).astype(numpy.float32)
    t = (x.sum(axis=1) * 1.5).astype(numpy.int32) % 3
    model = L.Classifier(MLP())
    optimizer = chainer.optimizers.MomentumSGD(lr=0.1)
    optimizer.setup(model)
    it = chainer.iterators.SerialIterator(chainer.datasets.TupleDataset(x, t), 8)
    updater = training.updaters.StandardUpdater(it, optimizer)
    trainer = training.Trainer(updater, (stop, 'iteration'), out=out)
    trainer.extend(extensions.LogReport(trigger=(5, 'iteration')))
    trainer.extend(extensions.snapshot(), trigger=(10, 'iteration'))
    return trainer, model


def test_chainer7_snapshot_resumes(tmp_path):
    snapshot = os.path.join(FIXTURES, 'chainer7_trainer_snapshot.npz')
    stored = numpy.load(snapshot, allow_pickle=False)
    trainer, model = _trainer(str(tmp_path), 11)
    chainer.serializers.load_npz(snapshot, trainer)

    assert trainer.updater.iteration == 10
    it = trainer.updater.get_iterator('main')
    assert it.epoch == 2 and it.current_position == 20
    numpy.testing.assert_array_equal(model.predictor.l1.W.array,
                                     stored['updater/model:main/predictor/l1/W'])
    numpy.testing.assert_array_equal(
        model.predictor.l2.b.update_rule.state['v'],
        stored['updater/optimizer:main/predictor/l2/b/v'])
    assert len(trainer.get_extension('LogReport').log) == 2  # Chainer's log came along

    trainer.run()  # training continues: iteration 11, inside the same epoch
    assert trainer.updater.iteration == 11
    after = numpy.load(os.path.join(FIXTURES, 'chainer7_model_after_iter_11.npz'),
                       allow_pickle=False)
    for name, param in model.namedparams():
        numpy.testing.assert_allclose(param.array, after[name.lstrip('/')], rtol=1e-6,
                                      atol=1e-7, err_msg=name)
