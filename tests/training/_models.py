"""Small models and datasets shared by the training tests."""
import numpy

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import training
from minichainer.datasets import TupleDataset


class MLP(minichainer.Chain):

    def __init__(self, n_hidden=8, n_out=3, dropout=0.3):
        super().__init__()
        self.dropout = dropout
        with self.init_scope():
            self.l1 = L.Linear(None, n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)

    def forward(self, x):
        h = F.relu(self.l1(x))
        if self.dropout:
            h = F.dropout(h, self.dropout)
        return self.l2(h)


def make_dataset(n=50, n_in=4, n_out=3, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(n, n_in).astype(numpy.float32)
    t = (numpy.abs(x[:, 0] * 2).astype(numpy.int32) % n_out).astype(numpy.int32)
    return TupleDataset(x, t)


def make_trainer(out, stop=(5, 'epoch'), batch_size=7, seed=0, extensions=(),
                 optimizer='adam', dataset=None):
    """A Classifier(MLP) trained with shuffling and dropout."""
    numpy.random.seed(seed)
    model = L.Classifier(MLP())
    if optimizer == 'adam':
        opt = minichainer.optimizers.Adam()
    else:
        opt = minichainer.optimizers.MomentumSGD(lr=0.05)
    opt.setup(model)
    ds = dataset if dataset is not None else make_dataset()
    it = minichainer.iterators.SerialIterator(ds, batch_size)
    updater = training.updaters.StandardUpdater(it, opt)
    trainer = training.Trainer(updater, stop, out=str(out))
    for ext in extensions:
        trainer.extend(ext)
    return trainer, model


def params_of(model):
    return {name: p.array.copy() for name, p in model.namedparams()}
