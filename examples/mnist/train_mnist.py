#!/usr/bin/env python
"""Train a multi-layer perceptron on handwritten digits with a Trainer.

Offline by default: the 8x8 digits bundled with scikit-learn
(``minichainer.datasets.get_digits``). ``--dataset mnist`` (or ``fashion-mnist``)
trains on the full 28x28 set, downloaded once into the dataset cache.

    python examples/mnist/train_mnist.py                 # digits, ~10 s
    python examples/mnist/train_mnist.py --dataset mnist --unit 1000 --epoch 20
    python examples/mnist/train_mnist.py --autoload      # continue from result/mnist/
    python examples/mnist/train_mnist.py --resume result/mnist/snapshot_iter_300
"""
import argparse

import minichainer as chainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import training
from minichainer.training import extensions


class MLP(chainer.Chain):
    """Three fully-connected layers; input sizes are inferred at the first call."""

    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def load_dataset(name):
    """Return ``(train, test)`` TupleDatasets of flat float32 images and int32 labels."""
    if name == 'digits':
        return chainer.datasets.get_digits()
    if name == 'mnist':
        return chainer.datasets.get_mnist()
    if name == 'fashion-mnist':
        return chainer.datasets.get_fashion_mnist()
    raise ValueError('--dataset must be digits, mnist or fashion-mnist, got {!r}'.format(name))


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='minichainer example: MNIST MLP')
    parser.add_argument('--dataset', default='digits',
                        choices=('digits', 'mnist', 'fashion-mnist'),
                        help='digits (offline, default) or a full 28x28 dataset')
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='Number of images in each mini-batch')
    parser.add_argument('--epoch', '-e', type=int, default=20,
                        help='Number of sweeps over the dataset to train')
    parser.add_argument('--iterations', type=int, default=None,
                        help='Stop after this many iterations instead (smoke tests)')
    parser.add_argument('--frequency', '-f', type=int, default=-1,
                        help='Snapshot every this many epochs (default: at the end)')
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='Device specifier: -1 or @numpy (the CPU; the only one)')
    parser.add_argument('--out', '-o', default='result/mnist',
                        help='Directory to output the result')
    parser.add_argument('--resume', '-r', type=str,
                        help='Resume the training from this snapshot file')
    parser.add_argument('--autoload', action='store_true',
                        help='Resume from the newest complete snapshot in --out')
    parser.add_argument('--unit', '-u', type=int, default=100,
                        help='Number of units in each hidden layer')
    parser.add_argument('--noplot', dest='plot', action='store_false',
                        help='Disable the PlotReport extension')
    parser.add_argument('--seed', type=int, default=0,
                        help='Seed of numpy\'s global generator (initial weights, shuffling)')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0,
                       help='GPU ID (negative value indicates CPU)')
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    import numpy
    numpy.random.seed(args.seed)

    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))
    print('# dataset: {}'.format(args.dataset))
    print('# unit: {}'.format(args.unit))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    # Classifier computes softmax cross entropy and accuracy and reports both
    # ('main/loss', 'main/accuracy' in the trainer, 'validation/main/...' in the Evaluator).
    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = load_dataset(args.dataset)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    stop = (args.iterations, 'iteration') if args.iterations else (args.epoch, 'epoch')
    trainer = training.Trainer(updater, stop, out=args.out)

    # Evaluate on the test set at the end of every epoch, and once before training
    # (call_before_training): LogReport, PlotReport and PrintReport, registered the same
    # way, then show that evaluation of the untrained model as an epoch-0 row.
    trainer.extend(extensions.Evaluator(test_iter, model, device=device),
                   call_before_training=True)
    # Write the graph of the loss at the first iteration to out/cg.dot (Graphviz).
    trainer.extend(extensions.DumpGraph('main/loss'))
    # Snapshot the whole trainer; keep only the newest one.
    frequency = args.epoch if args.frequency == -1 else max(1, args.frequency)
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload),
                   trigger=(frequency, 'epoch'))
    trainer.extend(extensions.LogReport(), call_before_training=True)
    if args.plot and extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(
            ['main/loss', 'validation/main/loss'], 'epoch', filename='loss.png'),
            call_before_training=True)
        trainer.extend(extensions.PlotReport(
            ['main/accuracy', 'validation/main/accuracy'], 'epoch',
            filename='accuracy.png'), call_before_training=True)
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy', 'elapsed_time']),
        call_before_training=True)
    trainer.extend(extensions.ProgressBar())

    if args.resume is not None:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()
    print('final iteration {}, epoch {}'.format(updater.iteration, updater.epoch))


if __name__ == '__main__':
    main()
