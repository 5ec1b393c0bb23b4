"""An unmodified ChainerMN-style program (run through ``python -m minichainer.compat``)."""
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions


class MLP(chainer.Chain):
    def __init__(self):
        super(MLP, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 32)
            self.bn = chainermn.links.MultiNodeBatchNormalization(32, comm)
            self.l2 = L.Linear(None, 3)

    def forward(self, x):
        return self.l2(F.relu(self.bn(self.l1(x))))


comm = chainermn.create_communicator('flat')
numpy.random.seed(comm.rank)
model = L.Classifier(MLP())
optimizer = chainermn.create_multi_node_optimizer(
    chainer.optimizers.MomentumSGD(lr=0.1), comm)
optimizer.setup(model)
if comm.rank == 0:
    rs = numpy.random.RandomState(0)
    x = rs.standard_normal((120, 5)).astype(numpy.float32)
    t = (x[:, 0] > 0).astype(numpy.int32) + (x[:, 1] > 1).astype(numpy.int32)
    dataset = chainer.datasets.TupleDataset(x, t)
else:
    dataset = None
train = chainermn.scatter_dataset(dataset, comm, shuffle=True)
train_iter = chainer.iterators.SerialIterator(train, 10)
test_iter = chainer.iterators.SerialIterator(train, 10, repeat=False, shuffle=False)
updater = training.updaters.StandardUpdater(train_iter, optimizer, device=-1)
trainer = training.Trainer(updater, (5, 'epoch'), out=sys.argv[1])
trainer.extend(chainermn.create_multi_node_evaluator(
    extensions.Evaluator(test_iter, model, device=-1), comm))
if comm.rank == 0:
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(['epoch', 'main/loss',
                                           'validation/main/accuracy']))
trainer.run()
gathered = comm.gather_obj(model.predictor.l1.W.array)
if comm.rank == 0:
    assert numpy.array_equal(gathered[0], gathered[1])
    print('final accuracy', trainer.observation['validation/main/accuracy'])
