#!/usr/bin/env python
"""Numerical-parity script: an unmodified Chainer program whose random draws all come from
numpy's global RNG (default initializers, SerialIterator shuffling, dropout).

Prints one JSON line: the per-iteration losses of the same model trained with Adam and
with MomentumSGD + WeightDecay through StandardUpdater. Run under Chainer 7.8.1 or via
``python -m minichainer.compat parity_script.py``; the numbers must agree.
"""
import argparse
import json

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training


class Net(chainer.Chain):

    def __init__(self, n_in, n_hidden, n_out):
        super(Net, self).__init__()
        with self.init_scope():
            self.l1 = L.Linear(n_in, n_hidden)
            self.bn = L.BatchNormalization(n_hidden)
            self.l2 = L.Linear(n_hidden, n_out)

    def forward(self, x):
        h = F.relu(self.bn(self.l1(x)))
        h = F.dropout(h, ratio=0.5)
        return self.l2(h)


def train(optimizer_name, iterations, seed):
    numpy.random.seed(seed)
    x = numpy.random.uniform(-1, 1, (12, 5)).astype(numpy.float32)
    t = numpy.random.randint(0, 3, 12).astype(numpy.int32)
    dataset = chainer.datasets.TupleDataset(x, t)

    model = L.Classifier(Net(5, 4, 3))
    if optimizer_name == 'adam':
        optimizer = chainer.optimizers.Adam()
        optimizer.setup(model)
    else:
        optimizer = chainer.optimizers.MomentumSGD(lr=0.1)
        optimizer.setup(model)
        optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-3))
    iterator = chainer.iterators.SerialIterator(dataset, 4, shuffle=True)
    updater = training.updaters.StandardUpdater(iterator, optimizer, device=-1)
    losses = []
    for _ in range(iterations):
        updater.update()
        losses.append(float(model.loss.array))
    return losses


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--iterations', type=int, default=9)
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args()
    result = {name: train(name, args.iterations, args.seed)
              for name in ('adam', 'momentum_sgd')}
    print(json.dumps(result))


if __name__ == '__main__':
    main()
