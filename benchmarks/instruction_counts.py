"""Instruction counts of the benchmarks' workloads (deterministic, unlike times on a
shared machine).  Each workload is called N times through ``operator.call`` after its
set-up and three warm-up calls, so that callgrind counts only those calls:

    PYTHONHASHSEED=0 OPENBLAS_NUM_THREADS=1 PYTHONPATH=<tree> valgrind --tool=callgrind \
        --instr-atstart=no --collect-atstart=no --toggle-collect=_operator_call \
        --callgrind-out-file=/dev/null python benchmarks/instruction_counts.py WORKLOAD N [WARM_UPS]

and read ``Collected`` (divide by N).  WORKLOAD is one of core, mlp100, mlp1000, iterator,
trainer_bare, trainer_loop (10 iterations), trainer_loop100, mlp_bare, mlp_loop100, adam; the
Trainer's own cost is ``trainer_loop100 - 100 * trainer_bare`` per 100 iterations around
the stub updater, ``mlp_loop100 - 100 * mlp_bare`` around the 784-100-100-10 MLP's
updater of ``bench_trainer.py`` (issue 34's case).  Run the same script on
each tree (it imports minichainer from PYTHONPATH and does not touch sys.path).
"""
import gc
import operator
import os
import subprocess
import sys
import tempfile
import time

import numpy

# minichainer first, from PYTHONPATH: the benchmark modules imported below put their own
# checkout on sys.path, which must not decide the tree measured.
import minichainer
from minichainer.dataset import concat_examples

sys.path.insert(1, os.path.dirname(os.path.abspath(__file__)))
import bench_core  # noqa: E402
import bench_optimizer  # noqa: E402
import bench_trainer  # noqa: E402
import bench_training_step  # noqa: E402

what, n = sys.argv[1], int(sys.argv[2])
warm_ups = int(sys.argv[3]) if len(sys.argv) > 3 else 3


def mlp(hidden):
    x, t = bench_training_step.make_data()
    numpy.random.seed(0)
    return bench_training_step.build_minichainer(x, t, hidden)[0]


def iterator():
    # bench_iterator.py's set-up (the values do not change the work)
    x = numpy.ones((60000, 784), numpy.float32)
    t = numpy.zeros(60000, numpy.int32)
    numpy.random.seed(0)
    it = minichainer.iterators.SerialIterator(minichainer.datasets.TupleDataset(x, t), 100)
    return lambda: concat_examples(it.next())


def trainer_loop(iterations=10):
    # `iterations` iterations of a Trainer (LogReport, PrintReport) around the stub
    # updater; a fresh Trainer per call (made outside the counted call)
    updater = bench_trainer.stub_updater()
    out = tempfile.mkdtemp()

    def build():
        return bench_trainer.make_trainer(updater, iterations, out).run
    build.builds = True
    return build


def mlp_updater():
    # bench_trainer.py's 784-100-100-10 MLP, Adam, batch 100 (shared by mlp_bare and
    # mlp_loop100 so that the two count the same updates)
    if not hasattr(mlp_updater, 'updater'):
        mlp_updater.updater = bench_trainer._build([100, 100])
    return mlp_updater.updater


def mlp_loop(iterations=100):
    updater = mlp_updater()
    out = tempfile.mkdtemp()

    def build():
        return bench_trainer.make_trainer(updater, iterations, out).run
    build.builds = True
    return build


def adam():
    rng = numpy.random.default_rng(0)
    model = bench_optimizer._MLP(rng)
    for p in model.params():
        p.grad = (rng.standard_normal(p.shape) * 1e-2).astype(numpy.float32)
    return minichainer.optimizers.Adam().setup(model).update


fn = {'core': lambda: bench_core._loops()['minichainer'], 'mlp100': lambda: mlp(100), 'mlp1000': lambda: mlp(1000),
      'iterator': iterator, 'trainer_bare': lambda: bench_trainer.stub_updater().update, 'trainer_loop': trainer_loop,
      'trainer_loop100': lambda: trainer_loop(100),
      'mlp_bare': lambda: mlp_updater().update, 'mlp_loop100': mlp_loop,
      'adam': adam}[what]()
builds = getattr(fn, 'builds', False)  # fn() returns the callable to measure
# Instrumentation on only now (run with --instr-atstart=no): the set-up runs at full
# speed.  Valgrind takes the command some time later, so a pause and the warm-up calls
# follow it.  Outside Valgrind the script just runs.
if 'vgpreload' in os.environ.get('LD_PRELOAD', ''):
    subprocess.run(['callgrind_control', '-i', 'on', str(os.getpid())],
                   capture_output=True, check=True)
    start = time.time()
    while time.time() - start < 8:  # let Valgrind take the command before anything counts
        pass
for _ in range(warm_ups):
    fn()() if builds else fn()
gc.collect()
gc.disable()
for _ in range(n):
    operator.call(fn() if builds else fn)
