#!/usr/bin/env python
"""Load a trained MLP from a trainer snapshot and classify test images.

    python examples/mnist/train_mnist.py              # writes result/mnist/snapshot_iter_288
    python examples/mnist/inference.py                # newest snapshot in result/mnist/
    python examples/mnist/inference.py --snapshot result/mnist/snapshot_iter_288 --number 5

A trainer snapshot stores every object of the run under paths such as
``updater/model:main/predictor/l1/W``; ``load_npz(..., path=...)`` picks out the
predictor's part. ``--model result/mnist/mlp.model`` loads the file written by the custom
loop instead (keys ``predictor/...``).
"""
import argparse
import glob
import os
import re

import minichainer as chainer

from train_mnist import load_dataset
from train_mnist import MLP


def newest_snapshot(directory):
    """The snapshot_iter_<n> file with the largest n in ``directory``."""
    found = []
    for path in glob.glob(os.path.join(directory, 'snapshot_iter_*')):
        m = re.fullmatch(r'snapshot_iter_(\d+)', os.path.basename(path))
        if m:
            found.append((int(m.group(1)), path))
    if not found:
        raise SystemExit('no snapshot_iter_* file in {!r}: run train_mnist.py first, '
                         'or pass --snapshot/--model'.format(directory))
    return max(found)[1]


def main(argv=None):
    parser = argparse.ArgumentParser(description='minichainer example: MNIST inference')
    parser.add_argument('--dataset', default='digits',
                        choices=('digits', 'mnist', 'fashion-mnist'))
    parser.add_argument('--device', '-d', type=str, default='-1')
    parser.add_argument('--snapshot', '-s', default=None,
                        help='Trainer snapshot (default: newest in --out)')
    parser.add_argument('--model', '-m', default=None,
                        help='A model file saved by save_npz(model) instead of a snapshot')
    parser.add_argument('--out', '-o', default='result/mnist',
                        help='Where to look for snapshots')
    parser.add_argument('--unit', '-u', type=int, default=100)
    parser.add_argument('--number', '-n', type=int, default=10,
                        help='How many test images to classify and print')
    group = parser.add_argument_group('deprecated arguments')
    group.add_argument('--gpu', '-g', dest='device', type=int, nargs='?', const=0)
    args = parser.parse_args(argv)

    device = chainer.get_device(args.device)
    model = MLP(args.unit, 10)
    if args.model:
        chainer.serializers.load_npz(args.model, model, path='predictor/')
        print('Loaded {}'.format(args.model))
    else:
        snapshot = args.snapshot or newest_snapshot(args.out)
        chainer.serializers.load_npz(snapshot, model, path='updater/model:main/predictor/')
        print('Loaded {}'.format(snapshot))
    model.to_device(device)
    device.use()

    _, test = load_dataset(args.dataset)
    x, t = chainer.dataset.concat_examples(test, device)
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        y = model(x)
    predicted = y.array.argmax(axis=1)
    for i in range(min(args.number, len(t))):
        print('image {:3d}: predicted {}, label {}'.format(i, int(predicted[i]), int(t[i])))
    accuracy = float((predicted == t).mean())
    print('accuracy on all {} test images: {:.4f}'.format(len(t), accuracy))
    return accuracy


if __name__ == '__main__':
    main()
