#!/usr/bin/env python
"""Train a variational auto-encoder with a custom loss passed as ``loss_func``.

The model's negative ELBO (net.py, ``VAE.get_loss_func``) is given to
StandardUpdater as ``loss_func`` and to the Evaluator as ``eval_func``: the updater
calls ``loss_func(*batch)`` instead of ``model(*batch)``. At the end the script
writes reconstructions and samples from the prior as PNG grids (skipped with a
message when Pillow is missing) and the model to ``<out>/model.npz``.

    python examples/vae/train_vae.py                   # 8x8 digits, offline
    python examples/vae/train_vae.py --test            # a few seconds
    python examples/vae/train_vae.py --dataset mnist --dim-hidden 500 --dim-z 20
"""
import argparse
import os

import numpy

import minichainer as chainer
from minichainer import training
from minichainer.training import extensions

import net


def load_images(name):
    """``(train, test)`` float32 arrays of flat images in [0, 1]."""
    if name == 'digits':
        return chainer.datasets.get_digits(withlabel=False)
    if name == 'mnist':
        return chainer.datasets.get_mnist(withlabel=False)
    raise ValueError('--dataset must be digits or mnist, got {!r}'.format(name))


def save_grid(images, side, path):
    """Save ``(n, side*side)`` images in [0, 1] as a square grid PNG if Pillow exists."""
    try:
        from PIL import Image
    except ImportError:
        print('skipping {}: Pillow is not installed '
              '(pip install minichainer[examples])'.format(os.path.basename(path)))
        return False
    n = len(images)
    cols = int(numpy.ceil(numpy.sqrt(n)))
    rows = int(numpy.ceil(n / cols))
    canvas = numpy.full((rows * (side + 1) + 1, cols * (side + 1) + 1), 64, numpy.uint8)
    for i, image in enumerate(images):
        r, c = divmod(i, cols)
        pixels = numpy.clip(image.reshape(side, side) * 255, 0, 255).astype(numpy.uint8)
        canvas[1 + r * (side + 1):1 + r * (side + 1) + side,
               1 + c * (side + 1):1 + c * (side + 1) + side] = pixels
    scale = max(1, 128 // (side * 2))
    canvas = numpy.kron(canvas, numpy.ones((scale, scale), numpy.uint8))
    Image.fromarray(canvas).save(path)
    return True


def main(argv=None):
    parser = argparse.ArgumentParser(description='minichainer example: VAE')
    parser.add_argument('--dataset', default='digits', choices=('digits', 'mnist'))
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--out', '-o', default='result/vae')
    parser.add_argument('--resume', '-r', type=str, default=None)
    parser.add_argument('--epoch', '-e', type=int, default=50)
    parser.add_argument('--dim-z', '-z', dest='dim_z', type=int, default=8,
                        help='Dimension of the latent space')
    parser.add_argument('--dim-hidden', '-u', dest='dim_hidden', type=int, default=64,
                        help='Number of hidden units')
    parser.add_argument('--beta', type=float, default=1.0, help='Weight of the KL term')
    parser.add_argument('--k', '-k', type=int, default=1,
                        help='Latent samples per example in the training loss')
    parser.add_argument('--batchsize', '-b', type=int, default=100)
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--test', action='store_true',
                        help='Quick check on 200 training images and 2 epochs')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    args = parser.parse_args(argv)

    numpy.random.seed(args.seed)
    device = chainer.get_device(args.device)
    print('Device: {}'.format(device))
    print('# dim z: {}'.format(args.dim_z))
    print('# Minibatch-size: {}'.format(args.batchsize))
    print('# epoch: {}'.format(args.epoch))
    print('')

    train, test = load_images(args.dataset)
    if args.test:
        train, test = train[:200], test[:100]
        args.epoch = min(args.epoch, 2)
    n_in = train.shape[1]
    side = int(round(numpy.sqrt(n_in)))

    model = net.VAE(n_in, args.dim_z, args.dim_hidden)
    model.to_device(device)
    device.use()
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize,
                                                 repeat=False, shuffle=False)

    # The updater calls loss_func(x) with the converted batch, instead of model(x).
    updater = training.updaters.StandardUpdater(
        train_iter, optimizer, device=device,
        loss_func=model.get_loss_func(beta=args.beta, k=args.k))
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(
        test_iter, model, device=device, eval_func=model.get_loss_func(beta=args.beta, k=10)))
    trainer.extend(extensions.snapshot(n_retains=1), trigger=(args.epoch, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/rec_loss',
         'validation/main/rec_loss', 'elapsed_time']))
    trainer.extend(extensions.ProgressBar())
    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)

    trainer.run()

    chainer.serializers.save_npz(os.path.join(args.out, 'model.npz'), model)
    # Reconstructions of the first test images, and decodings of prior samples.
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        x = device.send(numpy.asarray(test[:36]))
        reconstructed = chainer.backends.cuda.to_cpu(model(x).array)
        z = numpy.random.RandomState(args.seed).normal(
            0, 1, (36, args.dim_z)).astype(numpy.float32)
        sampled = chainer.backends.cuda.to_cpu(model.decode(device.send(z)).array)
    save_grid(numpy.asarray(test[:36]), side, os.path.join(args.out, 'test_original.png'))
    save_grid(reconstructed, side, os.path.join(args.out, 'test_reconstructed.png'))
    save_grid(sampled, side, os.path.join(args.out, 'sampled.png'))


if __name__ == '__main__':
    main()
