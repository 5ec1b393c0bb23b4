#!/usr/bin/env python
"""A Chainer 7 style MNIST MLP trained by a Trainer (the API surface of Chainer's
examples/mnist/train_mnist.py), written for minichainer's end-to-end tests."""
import argparse

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions
import chainerx


class Perceptron(chainer.Chain):

    def __init__(self, hidden, classes):
        super(Perceptron, self).__init__()
        with self.init_scope():
            self.fc1 = L.Linear(None, hidden)
            self.fc2 = L.Linear(None, hidden)
            self.out = L.Linear(None, classes)

    def forward(self, x):
        h = F.relu(self.fc1(x))
        h = F.relu(self.fc2(h))
        return self.out(h)


def parse():
    p = argparse.ArgumentParser(description='MNIST MLP (minichainer e2e)')
    p.add_argument('--batchsize', '-b', type=int, default=20)
    p.add_argument('--epoch', '-e', type=int, default=2)
    p.add_argument('--frequency', '-f', type=int, default=-1)
    p.add_argument('--device', '-d', type=str, default='-1')
    p.add_argument('--out', '-o', default='result')
    p.add_argument('--resume', '-r', type=str)
    p.add_argument('--autoload', action='store_true')
    p.add_argument('--unit', '-u', type=int, default=16)
    p.add_argument('--noplot', dest='plot', action='store_false')
    legacy = p.add_argument_group('deprecated arguments')
    legacy.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    return p.parse_args()


def main():
    args = parse()
    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))

    model = L.Classifier(Perceptron(args.unit, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = chainer.datasets.get_mnist()
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device),
                   call_before_training=True)
    if device.xp is not chainerx:  # ChainerX graphs cannot be dumped
        trainer.extend(extensions.DumpGraph('main/loss'))
    frequency = args.epoch if args.frequency == -1 else max(1, args.frequency)
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload),
                   trigger=(frequency, 'epoch'))
    trainer.extend(extensions.LogReport(), call_before_training=True)
    if args.plot and extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(['main/loss', 'validation/main/loss'],
                                             'epoch', file_name='loss.png'),
                       call_before_training=True)
        trainer.extend(extensions.PlotReport(['main/accuracy', 'validation/main/accuracy'],
                                             'epoch', file_name='accuracy.png'),
                       call_before_training=True)
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']), call_before_training=True)
    trainer.extend(extensions.ProgressBar())

    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()
    print('final iteration {}'.format(updater.iteration))


if __name__ == '__main__':
    main()
