"""The `make demo` program: an MLP trained on handwritten digits, Chainer-style.

It uses the 8x8 digits bundled with scikit-learn (no download), the standard trainer
extensions, and writes to ``result/``: ``log`` (JSON), ``loss.png`` and ``accuracy.png``,
``cg.dot`` and a trainer snapshot that ``--resume`` picks up.  With ``--tensorboard``
it also writes TensorBoard event files to ``result/tb`` (``pip install tensorboardX``;
watch with ``tensorboard --logdir result/tb``).
"""
import argparse

import minichainer as chainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import training
from minichainer.training import extensions


class MLP(chainer.Chain):
    """Two hidden layers of ReLU units; the input size is inferred on the first call."""

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


def main(argv=None):
    parser = argparse.ArgumentParser(description='minichainer demo: an MLP on digits')
    parser.add_argument('--batchsize', '-b', type=int, default=64)
    parser.add_argument('--epoch', '-e', type=int, default=20)
    parser.add_argument('--unit', '-u', type=int, default=100)
    parser.add_argument('--out', '-o', default='result')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--resume', '-r', default='', help='resume from this snapshot')
    parser.add_argument('--no-progress', action='store_true', help='hide the progress bar')
    parser.add_argument('--tensorboard', action='store_true',
                        help='also write TensorBoard event files to <out>/tb (needs '
                             'tensorboardX; watch with `tensorboard --logdir <out>/tb`)')
    args = parser.parse_args(argv)

    import numpy
    numpy.random.seed(args.seed)
    model = L.Classifier(MLP(args.unit, 10))
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train, test = chainer.datasets.get_digits()
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)

    updater = training.updaters.StandardUpdater(train_iter, optimizer, device=-1)
    trainer = training.Trainer(updater, (args.epoch, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=-1))
    trainer.extend(extensions.DumpGraph('main/loss'))
    trainer.extend(extensions.snapshot(), trigger=(args.epoch, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PlotReport(['main/loss', 'validation/main/loss'],
                                         'epoch', file_name='loss.png'))
    trainer.extend(extensions.PlotReport(['main/accuracy', 'validation/main/accuracy'],
                                         'epoch', file_name='accuracy.png'))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    if args.tensorboard:
        # Scalars of every observation at each epoch, and histograms of the weights.
        trainer.extend(extensions.TensorBoardReport(histograms=model))
    if not args.no_progress:
        trainer.extend(extensions.ProgressBar(update_interval=20))
    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)
    trainer.run()

    accuracy = trainer.observation.get('validation/main/accuracy')
    if accuracy is not None:
        print('final validation accuracy: {:.4f}'.format(float(accuracy)))
    if args.tensorboard:
        logdir = trainer.get_extension('TensorBoardReport').logdir
        print('TensorBoard event files in {0}; watch with: tensorboard --logdir {0}'.format(
            logdir))
    return trainer


if __name__ == '__main__':
    main()
