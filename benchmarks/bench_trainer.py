"""Issues 6 and 34 benchmark: per-iteration overhead of the Trainer (with LogReport and
PrintReport) over calling ``updater.update()`` in a bare loop.

Model: 784-100-100-10 MLP classifier by default (``--hidden 100`` for issue 6's
784-100-10), batch 100, Adam, StandardUpdater over a synthetic TupleDataset of 60000
examples like MNIST (600 iterations per epoch, so LogReport and PrintReport emit once
per 600 iterations).  Chunks of bare-loop and Trainer
iterations are interleaved (a new Trainer per chunk, on the same updater) and the best
and median per-iteration times are reported.  Because those swing by several percent
with machine load, the Trainer's own cost is also measured directly, around a stub
updater that only reports a loss and an accuracy, and given as a share of the update.
Target: overhead <= 3%.

Run: ``python benchmarks/bench_trainer.py``.  Figures are printed; nothing is asserted.
"""
import argparse
import gc
import io
import os
import sys
import time

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def _build(hidden):
    import minichainer
    import minichainer.functions as F
    import minichainer.links as L
    from minichainer import training

    class MLP(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.layers = minichainer.ChainList(*[
                    L.Linear(n_in, n_out) for n_in, n_out
                    in zip([784] + hidden, hidden + [10])])

        def forward(self, x):
            *hidden_layers, last = self.layers
            for layer in hidden_layers:
                x = F.relu(layer(x))
            return last(x)

    numpy.random.seed(0)
    x = numpy.random.rand(60000, 784).astype(numpy.float32)
    t = numpy.random.randint(0, 10, 60000).astype(numpy.int32)
    model = L.Classifier(MLP())
    opt = minichainer.optimizers.Adam()
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(minichainer.datasets.TupleDataset(x, t), 100)
    return training.updaters.StandardUpdater(it, opt)


def _bare(updater, n):
    update = updater.update
    gc.collect()
    start = time.perf_counter()
    for _ in range(n):
        update()
    return (time.perf_counter() - start) / n


def make_trainer(updater, n, tmpdir):
    """A Trainer with LogReport and PrintReport that runs `n` more iterations."""
    from minichainer import training
    from minichainer.training import extensions
    trainer = training.Trainer(updater, (updater.iteration + n, 'iteration'), out=tmpdir)
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'main/loss', 'main/accuracy', 'elapsed_time'],
        out=io.StringIO()))
    return trainer


def _trainer(updater, n, tmpdir):
    trainer = make_trainer(updater, n, tmpdir)
    gc.collect()
    start = time.perf_counter()
    trainer.run()
    return (time.perf_counter() - start) / n


def stub_updater():
    """A StandardUpdater that only reports a loss and an accuracy, as Classifier does,
    and draws a batch."""
    import minichainer
    from minichainer import training

    class StubUpdater(training.updaters.StandardUpdater):
        def __init__(self, iterator, optimizer):
            super().__init__(iterator, optimizer)
            self.loss = minichainer.Variable(numpy.array(0.5, numpy.float32))

        def update_core(self):
            minichainer.report({'loss': self.loss, 'accuracy': self.loss},
                               self.get_optimizer('main').target)
            self.get_iterator('main').next()

    x = numpy.zeros((60000, 1), numpy.float32)
    model = minichainer.links.Linear(1, 1)
    opt = minichainer.optimizers.SGD()
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(minichainer.datasets.TupleDataset(x), 100,
                                              shuffle=False)
    return StubUpdater(it, opt)


def _trainer_cost_per_iteration(n, tmpdir, rounds=7):
    """The Trainer's own cost per iteration (reporter scope, triggers, LogReport,
    PrintReport), measured around a stub updater that only reports a loss and an
    accuracy as Classifier does: minimum over rounds of (Trainer loop - bare loop)."""
    updater = stub_updater()
    costs = []
    for _ in range(rounds):
        bare = _bare(updater, n)
        costs.append(_trainer(updater, n, tmpdir) - bare)
    return min(costs)


def main():
    import tempfile
    parser = argparse.ArgumentParser()
    parser.add_argument('--hidden', type=int, nargs='+', default=[100, 100],
                        help='hidden layer sizes (default: 100 100)')
    parser.add_argument('--iterations', type=int, default=1500,
                        help='iterations per timed chunk (one epoch is 600)')
    parser.add_argument('--repeat', type=int, default=7,
                        help='number of interleaved bare/Trainer chunk pairs')
    args = parser.parse_args()
    updater = _build(args.hidden)
    _bare(updater, 50)  # warm up
    bare, with_trainer = [], []
    with tempfile.TemporaryDirectory() as tmpdir:
        for _ in range(args.repeat):
            bare.append(_bare(updater, args.iterations))
            with_trainer.append(_trainer(updater, args.iterations, tmpdir))
        own_cost = _trainer_cost_per_iteration(6000, tmpdir)
    b, t = min(bare), min(with_trainer)
    bm, tm = numpy.median(bare), numpy.median(with_trainer)
    print('784-{}-10 MLP, batch 100, Adam; {} interleaved chunks of {} iterations'
          .format('-'.join(map(str, args.hidden)), args.repeat, args.iterations))
    print('                                   best        median')
    print('bare updater.update() loop     : {:8.1f} us  {:8.1f} us'.format(b * 1e6, bm * 1e6))
    print('Trainer + LogReport/PrintReport: {:8.1f} us  {:8.1f} us'.format(t * 1e6, tm * 1e6))
    print('overhead (best): {:+.2f}%   (median): {:+.2f}%   target <= 3%'.format(
        (t / b - 1) * 100, (tm / bm - 1) * 100))
    print("Trainer's own cost around a stub updater: {:.1f} us/iteration = {:+.2f}% of the "
          'best bare update'.format(own_cost * 1e6, own_cost / b * 100))


if __name__ == '__main__':
    main()
