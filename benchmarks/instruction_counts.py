"""Instruction counts of the benchmarks' workloads (deterministic, unlike times on a
shared machine).  Each workload is called N times through ``operator.call`` after its
set-up and three warm-up calls, so that callgrind counts only those calls:

    PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 PYTHONPATH=<tree> valgrind --tool=callgrind \
        --instr-atstart=no --collect-atstart=no --toggle-collect=_operator_call \
        --callgrind-out-file=/dev/null python benchmarks/instruction_counts.py WORKLOAD N [WARM_UPS]

and read ``Collected`` (divide by N).  WORKLOAD is one of core, mlp100, mlp1000, iterator,
trainer_bare, trainer_loop (10 iterations), trainer_loop100, adam; the Trainer's own cost
is ``trainer_loop100 - 100 * trainer_bare`` per 100 iterations.  Run the same script on
each tree (it imports minichainer from PYTHONPATH and does not touch sys.path).
"""
import gc
import io
import operator
import os
import subprocess
import sys
import tempfile
import time

import numpy
import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import training
from minichainer.dataset import concat_examples
from minichainer.training import extensions

what, n = sys.argv[1], int(sys.argv[2])
warm_ups = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def core():
    x0 = numpy.array(1.0, numpy.float32)
    def ours():
        y = minichainer.Variable(x0)
        for _ in range(500):
            y = y * 1.0001
            y = y + 0.5
        y.backward()
    return ours


def mlp(hidden):
    rs = numpy.random.RandomState(0)
    x = rs.uniform(0, 1, (10000, 784)).astype(numpy.float32)
    t = rs.randint(0, 10, 10000).astype(numpy.int32)
    class MLP(minichainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(784, hidden)
                self.l2 = L.Linear(hidden, hidden)
                self.l3 = L.Linear(hidden, 10)
        def forward(self, x):
            return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))
    numpy.random.seed(0)
    model = L.Classifier(MLP())
    opt = minichainer.optimizers.Adam()
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(minichainer.datasets.TupleDataset(x, t), 100)
    return training.updaters.StandardUpdater(it, opt).update


def iterator():
    x = numpy.ones((60000, 784), numpy.float32)
    t = numpy.zeros(60000, numpy.int32)
    numpy.random.seed(0)
    it = minichainer.iterators.SerialIterator(minichainer.datasets.TupleDataset(x, t), 100)
    return lambda: concat_examples(it.next())


def _stub_updater():
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


def trainer_bare():
    up = _stub_updater()
    return up.update


def trainer_loop(iterations=10):
    # `iterations` iterations of a Trainer (LogReport, PrintReport) around the stub updater;
    # the bare loop's 10 updates are subtracted to give the trainer's own cost.
    up = _stub_updater()
    out = tempfile.mkdtemp()
    def build():
        tr = training.Trainer(up, (up.iteration + iterations, 'iteration'), out=out)
        tr.extend(extensions.LogReport())
        tr.extend(extensions.PrintReport(
            ['epoch', 'iteration', 'main/loss', 'main/accuracy', 'elapsed_time'],
            out=io.StringIO()))
        return tr.run
    build.builds = True
    return build


def adam():
    rng = numpy.random.default_rng(0)
    sizes = (784, 1000, 1000, 10)
    model = minichainer.ChainList(*[L.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])
    for p in model.params():
        p.grad = (rng.standard_normal(p.shape) * 1e-2).astype(numpy.float32)
    opt = minichainer.optimizers.Adam().setup(model)
    return opt.update


fn = {'core': core, 'mlp100': lambda: mlp(100), 'mlp1000': lambda: mlp(1000),
      'iterator': iterator, 'trainer_bare': trainer_bare, 'trainer_loop': trainer_loop,
      'trainer_loop100': lambda: trainer_loop(100),
      'adam': adam}[what]()
builds = getattr(fn, 'builds', False)  # fn() returns the callable to measure
# Instrumentation on only now (run with --instr-atstart=no): the set-up runs at full
# speed.  Valgrind takes the command some time later, so a pause and the warm-up calls
# follow it.  Outside Valgrind the script just runs.
if 'vgpreload' in os.environ.get('LD_PRELOAD', ''):
    subprocess.run(['callgrind_control', '-i', 'on', str(os.getpid())],
                   capture_output=True)
    start = time.time()
    while time.time() - start < 8:  # let Valgrind take the command before anything counts
        pass
for _ in range(warm_ups):
    fn()() if builds else fn()
gc.collect()
gc.disable()
for _ in range(n):
    operator.call(fn() if builds else fn)
