"""The `make demo` program: an MLP trained on handwritten digits, Chainer-style.

It uses the 8x8 digits bundled with scikit-learn (no download), the standard trainer
extensions, and writes to ``result/``: ``log`` (JSON), ``loss.png`` and ``accuracy.png``,
``cg.dot`` and a trainer snapshot that ``--resume`` picks up.  With ``--tensorboard``
it also writes TensorBoard event files to ``result/tb`` (``pip install tensorboardX``;
watch with ``tensorboard --logdir result/tb``).  With ``--onnx`` it exports the trained
network to ``result/model.onnx`` (``pip install 'minichainer[onnx]'``) and prints ONNX
Runtime's accuracy on the validation set beside minichainer's.
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


def export_onnx(predictor, dataset, out):
    """Export `predictor` (any batch size) to ``out/model.onnx``; print the validation
    accuracy of ONNX Runtime and of minichainer on `dataset`."""
    import os

    import numpy
    import onnxruntime
    import minichainer.onnx

    x, t = chainer.dataset.concat_examples(dataset)
    path = os.path.join(out, 'model.onnx')
    minichainer.onnx.export(predictor, x[:1], filename=path, no_testcase=True,
                            input_names=['x'], output_names=['y'],
                            input_shapes=[('batch',) + x.shape[1:]])
    session = onnxruntime.InferenceSession(path, providers=['CPUExecutionProvider'])
    y_onnx, = session.run(['y'], {'x': x})
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        y_mc = predictor(x).array
    acc_onnx = float((y_onnx.argmax(axis=1) == t).mean())
    acc_mc = float((y_mc.argmax(axis=1) == t).mean())
    print('wrote {}; validation accuracy: minichainer {:.4f}, ONNX Runtime {:.4f} '
          '(largest output difference {:.1e})'.format(
              path, acc_mc, acc_onnx, float(numpy.abs(y_onnx - y_mc).max())))
    return acc_mc, acc_onnx


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
    parser.add_argument('--onnx', action='store_true',
                        help='export the trained network to <out>/model.onnx and print '
                             'ONNX Runtime\'s validation accuracy beside minichainer\'s '
                             '(needs onnx and onnxruntime)')
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
    if args.onnx:
        export_onnx(model.predictor, test, args.out)
    if args.tensorboard:
        logdir = trainer.get_extension('TensorBoardReport').logdir
        print('TensorBoard event files in {0}; watch with: tensorboard --logdir {0}'.format(
            logdir))
    return trainer


if __name__ == '__main__':
    main()
