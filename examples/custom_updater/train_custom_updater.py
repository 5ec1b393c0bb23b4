#!/usr/bin/env python
"""Train a small GAN on the 8x8 digits with a custom updater and two optimizers.

The updater (updater.py) subclasses StandardUpdater and overrides ``update_core``;
the trainer, the snapshot and the log work unchanged. A preview grid of generated
digits is written to ``<out>/preview/`` every ``--snapshot_interval`` iterations
(skipped with a message when Pillow is missing).

    python examples/custom_updater/train_custom_updater.py            # digits, offline
    python examples/custom_updater/train_custom_updater.py --dataset mnist
    python examples/custom_updater/train_custom_updater.py --resume result/gan/snapshot_iter_1000
"""
import argparse

import numpy

import minichainer as chainer
from minichainer import training
from minichainer.training import extensions

from net import Discriminator
from net import Generator
from updater import GANUpdater
from visualize import out_generated_image


def load_images(name):
    """Training images as float32 ``(N, 1, size, size)`` in [0, 1]."""
    if name == 'digits':
        train, _ = chainer.datasets.get_digits(withlabel=False, ndim=3)
    elif name == 'mnist':
        train, _ = chainer.datasets.get_mnist(withlabel=False, ndim=3)
    else:
        raise ValueError('--dataset must be digits or mnist, got {!r}'.format(name))
    return train


def make_optimizer(model, alpha=0.0002, beta1=0.5):
    optimizer = chainer.optimizers.Adam(alpha=alpha, beta1=beta1)
    optimizer.setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(0.0001), 'hook_dec')
    return optimizer


def main(argv=None):
    parser = argparse.ArgumentParser(description='minichainer example: GAN custom updater')
    parser.add_argument('--dataset', default='digits', choices=('digits', 'mnist'))
    parser.add_argument('--batchsize', '-b', type=int, default=50)
    parser.add_argument('--epoch', '-e', type=int, default=30)
    parser.add_argument('--iterations', type=int, default=None,
                        help='Stop after this many iterations instead of --epoch')
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--out', '-o', default='result/gan')
    parser.add_argument('--resume', '-r', type=str, default=None)
    parser.add_argument('--n_hidden', '-n', type=int, default=16,
                        help='Size of the noise vector')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--snapshot_interval', type=int, default=300)
    parser.add_argument('--display_interval', type=int, default=50)
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    args = parser.parse_args(argv)

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# n_hidden: {}'.format(args.n_hidden))
    print('')

    train = load_images(args.dataset)
    size = train.shape[-1]
    gen = Generator(n_hidden=args.n_hidden, size=size)
    dis = Discriminator()
    gen.to_device(device)
    dis.to_device(device)
    device.use()

    opt_gen = make_optimizer(gen)
    opt_dis = make_optimizer(dis)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)

    updater = GANUpdater(
        models=(gen, dis), iterator=train_iter,
        optimizer={'gen': opt_gen, 'dis': opt_dis}, device=device)
    stop = (args.iterations, 'iteration') if args.iterations else (args.epoch, 'epoch')
    trainer = training.Trainer(updater, stop, out=args.out)

    snapshot_interval = (args.snapshot_interval, 'iteration')
    display_interval = (args.display_interval, 'iteration')
    trainer.extend(extensions.snapshot(n_retains=1), trigger=snapshot_interval)
    trainer.extend(extensions.snapshot_object(gen, 'gen_iter_{.updater.iteration}.npz'),
                   trigger=snapshot_interval)
    trainer.extend(extensions.snapshot_object(dis, 'dis_iter_{.updater.iteration}.npz'),
                   trigger=snapshot_interval)
    trainer.extend(extensions.LogReport(trigger=display_interval))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'gen/loss', 'dis/loss', 'elapsed_time']),
        trigger=display_interval)
    trainer.extend(extensions.ProgressBar(update_interval=display_interval[0]))
    preview = out_generated_image(gen, 10, 10, args.seed, 'preview')
    trainer.extend(preview, trigger=snapshot_interval)

    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()
    preview(trainer)   # one more grid from the final generator
    print('final iteration {}'.format(updater.iteration))


if __name__ == '__main__':
    main()
