#!/usr/bin/env python
"""A tiny DCGAN trained on a folder of PNG images (the API surface of Chainer's
examples/dcgan/train_dcgan.py), for minichainer's end-to-end tests."""
import argparse
import os

import chainer
from chainer import training
from chainer.training import extensions

from gan_updater import GANUpdater
from nets import Discriminator
from nets import Generator
from viz import out_generated_image


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--batchsize', '-b', type=int, default=4)
    p.add_argument('--epoch', '-e', type=int, default=2)
    p.add_argument('--device', '-d', type=str, default='-1')
    p.add_argument('--dataset', '-i', required=True)
    p.add_argument('--out', '-o', default='result')
    p.add_argument('--resume', '-r', default='')
    p.add_argument('--n_hidden', '-n', type=int, default=8)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--snapshot_interval', type=int, default=4)
    p.add_argument('--display_interval', type=int, default=2)
    p.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    args = p.parse_args()

    device = chainer.get_device(args.device)
    device.use()
    gen = Generator(n_hidden=args.n_hidden)
    dis = Discriminator()
    gen.to_device(device)
    dis.to_device(device)

    def make_optimizer(model, alpha=0.0002, beta1=0.5):
        optimizer = chainer.optimizers.Adam(alpha=alpha, beta1=beta1)
        optimizer.setup(model)
        optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(0.0001), 'hook_dec')
        return optimizer

    opt_gen = make_optimizer(gen)
    opt_dis = make_optimizer(dis)

    image_files = sorted(f for f in os.listdir(args.dataset) if f.endswith('.png'))
    train = chainer.datasets.ImageDataset(paths=image_files, root=args.dataset)
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)

    updater = GANUpdater(models=(gen, dis), iterator=train_iter,
                         optimizer={'gen': opt_gen, 'dis': opt_dis}, device=device)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)

    snapshot_interval = (args.snapshot_interval, 'iteration')
    display_interval = (args.display_interval, 'iteration')
    trainer.extend(extensions.snapshot(filename='snapshot_iter_{.updater.iteration}.npz'),
                   trigger=snapshot_interval)
    trainer.extend(extensions.snapshot_object(gen, 'gen_iter_{.updater.iteration}.npz'),
                   trigger=snapshot_interval)
    trainer.extend(extensions.snapshot_object(dis, 'dis_iter_{.updater.iteration}.npz'),
                   trigger=snapshot_interval)
    trainer.extend(extensions.LogReport(trigger=display_interval))
    trainer.extend(extensions.PrintReport(['epoch', 'iteration', 'gen/loss', 'dis/loss']),
                   trigger=display_interval)
    trainer.extend(extensions.ProgressBar(update_interval=2))
    trainer.extend(out_generated_image(gen, dis, 2, 2, args.seed, args.out),
                   trigger=snapshot_interval)
    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)
    trainer.run()
    print('done at iteration {}'.format(updater.iteration))


if __name__ == '__main__':
    main()
