#!/usr/bin/env python
"""MNIST with a hand-written training loop (the API surface of Chainer's
examples/mnist/train_mnist_custom_loop.py), for minichainer's end-to-end tests."""
import argparse

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.dataset import convert


class TwoLayer(chainer.Chain):

    def __init__(self, hidden, classes):
        super(TwoLayer, self).__init__()
        with self.init_scope():
            self.a = L.Linear(None, hidden)
            self.b = L.Linear(hidden, classes)

    def __call__(self, x):
        return self.b(F.relu(self.a(x)))


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--batchsize', '-b', type=int, default=25)
    p.add_argument('--epoch', '-e', type=int, default=2)
    p.add_argument('--device', '-d', type=str, default='-1')
    p.add_argument('--out', '-o', default='.')
    p.add_argument('--unit', '-u', type=int, default=16)
    p.add_argument('--resume', '-r', type=str)
    p.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    args = p.parse_args()

    device = chainer.get_device(args.device)
    model = L.Classifier(TwoLayer(args.unit, 10))
    model.to_device(device)
    device.use()
    optimizer = chainer.optimizers.MomentumSGD(lr=0.05)
    optimizer.setup(model)
    if args.resume:
        chainer.serializers.load_npz('{}/mlp.model'.format(args.resume), model)
        chainer.serializers.load_npz('{}/mlp.state'.format(args.resume), optimizer)

    train, test = chainer.datasets.get_mnist()
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)

    train_losses = []
    while train_iter.epoch < args.epoch:
        batch = train_iter.next()
        x, t = convert.concat_examples(batch, device)
        optimizer.update(model, x, t)
        train_losses.append(float(model.loss.array))
        if train_iter.is_new_epoch:
            print('epoch {} train mean loss {:.4f}'.format(
                train_iter.epoch, numpy.mean(train_losses)))
            train_losses = []
            test_losses, test_accuracies = [], []
            with chainer.using_config('train', False), chainer.no_backprop_mode():
                for test_batch in test_iter:
                    x, t = convert.concat_examples(test_batch, device)
                    loss = model(x, t)
                    assert loss.creator is None  # no graph in no_backprop_mode
                    test_losses.append(float(loss.array))
                    test_accuracies.append(float(model.accuracy.array))
            test_iter.reset()
            print('epoch {} test loss {:.4f} accuracy {:.4f}'.format(
                train_iter.epoch, numpy.mean(test_losses), numpy.mean(test_accuracies)))

    chainer.serializers.save_npz('{}/mlp.model'.format(args.out), model)
    chainer.serializers.save_npz('{}/mlp.state'.format(args.out), optimizer)
    print('saved; optimizer.t = {}'.format(optimizer.t))


if __name__ == '__main__':
    main()
