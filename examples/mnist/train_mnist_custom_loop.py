#!/usr/bin/env python
"""Train the MNIST MLP with a hand-written loop instead of a Trainer.

Shows what the Trainer does for you: pull batches from the iterator, convert them,
call ``optimizer.update(model, x, t)``, watch ``train_iter.is_new_epoch`` to know when
an epoch ends (``epoch_detail`` tells how far in you are), evaluate on a copy of the
test iterator under ``train=False``, and save the model and the optimizer state.

    python examples/mnist/train_mnist_custom_loop.py              # digits, offline
    python examples/mnist/train_mnist_custom_loop.py --dataset mnist --unit 1000
    python examples/mnist/train_mnist_custom_loop.py --resume result/mnist/mlp.state
"""
import argparse
import copy
import os

import minichainer as chainer
from minichainer.dataset import convert
import minichainer.links as L
from minichainer import serializers

from train_mnist import load_dataset
from train_mnist import MLP


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description='minichainer example: MNIST custom loop')
    parser.add_argument('--dataset', default='digits',
                        choices=('digits', 'mnist', 'fashion-mnist'))
    parser.add_argument('--batchsize', '-b', type=int, default=100)
    parser.add_argument('--epoch', '-e', type=int, default=20)
    parser.add_argument('--device', '-d', type=str, default='-1',
                        help='Device specifier: -1 or @numpy')
    parser.add_argument('--out', '-o', default='result/mnist',
                        help='Directory for mlp.model and mlp.state')
    parser.add_argument('--resume', '-r', type=str,
                        help='Resume from this optimizer state file (mlp.state)')
    parser.add_argument('--unit', '-u', type=int, default=100)
    parser.add_argument('--seed', type=int, default=0)
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    return parser.parse_args(argv)


def evaluate(model, test_iter, device):
    """Mean loss and accuracy over one pass of a copy of ``test_iter``."""
    sum_loss = sum_accuracy = count = 0
    # A copy starts at the beginning every time and leaves the original untouched.
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for batch in copy.copy(test_iter):
            x, t = convert.concat_examples(batch, device)
            loss = model(x, t)
            sum_loss += float(loss.array) * len(t)
            sum_accuracy += float(model.accuracy.array) * len(t)
            count += len(t)
    return sum_loss / count, sum_accuracy / count


def main(argv=None):
    args = parse_args(argv)
    import numpy
    numpy.random.seed(args.seed)

    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))
    print('# unit: {}'.format(args.unit))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    device.use()
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = load_dataset(args.dataset)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    if args.resume:
        # The optimizer state holds Adam's moments and its step count t; the model
        # is saved next to it. (The iterator position is not saved in this loop:
        # that is what the Trainer's snapshot adds.)
        serializers.load_npz(os.path.join(os.path.dirname(args.resume), 'mlp.model'), model)
        serializers.load_npz(args.resume, optimizer)
        print('resumed at optimizer step {}'.format(optimizer.t))

    sum_loss = sum_accuracy = count = 0
    while train_iter.epoch < args.epoch:
        batch = train_iter.next()
        x, t = convert.concat_examples(batch, device)
        # update() clears the gradients, calls model(x, t), backprops and steps.
        optimizer.update(model, x, t)
        sum_loss += float(model.loss.array) * len(t)
        sum_accuracy += float(model.accuracy.array) * len(t)
        count += len(t)

        # is_new_epoch is True on exactly the iteration that finished an epoch;
        # epoch_detail is the fractional epoch (e.g. 2.43) for progress reports.
        if train_iter.is_new_epoch:
            test_loss, test_accuracy = evaluate(model, test_iter, device)
            print('epoch {:2d} (epoch_detail {:.3f})  train loss {:.4f} acc {:.4f}  '
                  'test loss {:.4f} acc {:.4f}'.format(
                      train_iter.epoch, train_iter.epoch_detail, sum_loss / count,
                      sum_accuracy / count, test_loss, test_accuracy))
            sum_loss = sum_accuracy = count = 0

    os.makedirs(args.out, exist_ok=True)
    print('save the model')
    serializers.save_npz(os.path.join(args.out, 'mlp.model'), model)
    print('save the optimizer')
    serializers.save_npz(os.path.join(args.out, 'mlp.state'), optimizer)


if __name__ == '__main__':
    main()
