"""Run every benchmark and print its figures (``make bench``).

Each script measures minichainer against a hand-written NumPy floor in the same process
and prints ratios; see benchmarks/README.md for what each case means and the targets.
Usage: ``python benchmarks/run.py [NAME ...]`` (names: core, functions, iterator,
optimizer, training_step, trainer, distributed, pool_norm, convnet, onnx).
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

BENCHMARKS = [
    ('core', ['bench_core.py'], 'issue 2: per-op overhead and memory'),
    ('functions', ['bench_functions.py', '--runs', '3'], 'issue 3: linear and convolution'),
    ('optimizer', ['bench_optimizer.py'], 'issue 4: one Adam step'),
    ('iterator', ['bench_iterator.py'], 'issue 5: SerialIterator + concat_examples'),
    ('training_step', ['bench_training_step.py'], 'issue 6: training step'),
    ('trainer', ['bench_trainer.py'], 'issue 6: Trainer + LogReport + PrintReport'),
    ('distributed', ['bench_distributed.py'], 'issue 9: data-parallel on 2 MPI ranks'),
    ('pool_norm', ['bench_pool_norm.py', '--runs', '3'],
     'issue 13: pooling, normalization, activations'),
    ('convnet', ['bench_convnet.py'], 'issue 13: convnet step, ResNet stack, conv, memory'),
    ('onnx', ['bench_onnx.py'], 'issue 32: ONNX export of ResNet-50, ONNX Runtime'),
]


def main(argv=None):
    names = list(sys.argv[1:] if argv is None else argv)
    known = [name for name, _, _ in BENCHMARKS]
    for name in names:
        if name not in known:
            sys.exit('run.py: unknown benchmark {!r}; choose from {}'.format(
                name, ', '.join(known)))
    failed = []
    for name, command, title in BENCHMARKS:
        if names and name not in names:
            continue
        print('=' * 78)
        print('{}  ({})'.format(title, command[0]))
        print('=' * 78, flush=True)
        result = subprocess.run([sys.executable, os.path.join(HERE, command[0])] + command[1:])
        if result.returncode != 0:
            failed.append(name)
            print('-> {} exited with status {}'.format(name, result.returncode), flush=True)
    if failed:
        print('benchmarks that did not complete: {}'.format(', '.join(failed)))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
