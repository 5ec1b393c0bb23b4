#!/usr/bin/env python
"""A small convolutional classifier with a learning-rate schedule.

Convolution2D + BatchNormalization + ReLU blocks, max pooling and dropout, trained
by MomentumSGD with weight decay; the learning rate is halved every
``--shift-every`` epochs by ExponentialShift (or dropped tenfold at fixed
iterations by MultistepShift with ``--shift multistep``), and observe_lr puts it in
the log.

    python examples/cnn/train_cnn.py                      # 8x8 digits, offline
    python examples/cnn/train_cnn.py --dataset mnist      # 28x28 MNIST (download)
    python examples/cnn/train_cnn.py --dataset cifar10 --epoch 100 --shift-every 25
"""
import argparse

import numpy

import minichainer as chainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import training
from minichainer.training import extensions


class ConvBlock(chainer.Chain):
    """3x3 convolution (no bias: BatchNormalization has one) → BN → ReLU."""

    def __init__(self, out_channels):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(None, out_channels, 3, pad=1, nobias=True)
            self.bn = L.BatchNormalization(out_channels)

    def forward(self, x):
        return F.relu(self.bn(self.conv(x)))


class CNN(chainer.Chain):
    """Two pooled stages of ConvBlocks, then a dropout-regularised MLP head."""

    def __init__(self, n_class=10, width=32, dropout=0.3):
        super().__init__()
        self.dropout = dropout
        with self.init_scope():
            self.b1 = ConvBlock(width)
            self.b2 = ConvBlock(width)
            self.b3 = ConvBlock(2 * width)
            self.b4 = ConvBlock(2 * width)
            self.fc1 = L.Linear(None, 4 * width)
            self.fc2 = L.Linear(4 * width, n_class)

    def forward(self, x):
        h = F.max_pooling_2d(self.b2(self.b1(x)), 2)     # 8x8 → 4x4 (28 → 14, 32 → 16)
        h = F.max_pooling_2d(self.b4(self.b3(h)), 2)     # → 2x2 (7, 8)
        h = F.dropout(F.relu(self.fc1(F.dropout(h, self.dropout))), self.dropout)
        return self.fc2(h)


def load_dataset(name):
    """``(train, test, n_class)`` with ``(C, H, W)`` float32 images."""
    if name == 'digits':
        train, test = chainer.datasets.get_digits(ndim=3)
        return train, test, 10
    if name == 'mnist':
        train, test = chainer.datasets.get_mnist(ndim=3)
        return train, test, 10
    if name == 'cifar10':
        train, test = chainer.datasets.get_cifar10()
        return train, test, 10
    raise ValueError('--dataset must be digits, mnist or cifar10, got {!r}'.format(name))


def main(argv=None):
    parser = argparse.ArgumentParser(description='minichainer example: CNN')
    parser.add_argument('--dataset', default='digits', choices=('digits', 'mnist', 'cifar10'))
    parser.add_argument('--batchsize', '-b', type=int, default=64)
    parser.add_argument('--learnrate', '-l', type=float, default=0.05)
    parser.add_argument('--epoch', '-e', type=int, default=12)
    parser.add_argument('--iterations', type=int, default=None,
                        help='Stop after this many iterations instead of --epoch')
    parser.add_argument('--shift', choices=('exponential', 'multistep'), default='exponential')
    parser.add_argument('--shift-every', dest='shift_every', type=int, default=4,
                        help='ExponentialShift: halve the learning rate every N epochs')
    parser.add_argument('--width', type=int, default=32, help='Channels of the first stage')
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--out', '-o', default='result/cnn')
    parser.add_argument('--resume', '-r', type=str, default=None)
    parser.add_argument('--autoload', action='store_true')
    parser.add_argument('--noplot', dest='plot', action='store_false')
    parser.add_argument('--seed', type=int, default=0)
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    args = parser.parse_args(argv)

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))
    print('# dataset: {}'.format(args.dataset))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    train, test, n_class = load_dataset(args.dataset)
    model = L.Classifier(CNN(n_class, args.width))
    model.to_device(device)
    device.use()

    optimizer = chainer.optimizers.MomentumSGD(args.learnrate)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(5e-4))

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)
    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=device)
    stop = (args.iterations, 'iteration') if args.iterations else (args.epoch, 'epoch')
    trainer = training.Trainer(updater, stop, out=args.out)

    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    if args.shift == 'exponential':
        trainer.extend(extensions.ExponentialShift('lr', 0.5),
                       trigger=(args.shift_every, 'epoch'))
    else:
        # MultistepShift counts iterations: drop tenfold at 50% and 75% of training.
        total = args.iterations or args.epoch * -(-len(train) // args.batchsize)
        trainer.extend(extensions.MultistepShift(
            'lr', 0.1, [total // 2, total * 3 // 4], args.learnrate))
    trainer.extend(extensions.observe_lr(), trigger=(1, 'epoch'))
    trainer.extend(extensions.snapshot(n_retains=1, autoload=args.autoload),
                   trigger=(1, 'epoch'))
    trainer.extend(extensions.LogReport())
    if args.plot and extensions.PlotReport.available():
        trainer.extend(extensions.PlotReport(
            ['main/accuracy', 'validation/main/accuracy'], 'epoch', filename='accuracy.png'))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'lr', 'main/loss', 'validation/main/loss',
         'main/accuracy', 'validation/main/accuracy', 'elapsed_time']))
    trainer.extend(extensions.ProgressBar(update_interval=20))

    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()
    print('final iteration {}, lr {:g}'.format(updater.iteration, optimizer.lr))


if __name__ == '__main__':
    main()
