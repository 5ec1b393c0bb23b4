"""SerialIterator + concat_examples vs plain NumPy fancy indexing of the same rows.

TupleDataset(60000x784 float32, 60000 int32), batch 100, shuffled. Prints the cost of
one batch for both, measured in the same run, and their ratio (target <= 1.5x).
Run: ``python benchmarks/bench_iterator.py``.
"""
import os
import sys
import time

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

from minichainer.dataset import concat_examples  # noqa: E402
from minichainer.datasets import TupleDataset  # noqa: E402
from minichainer.iterators import SerialIterator  # noqa: E402


def _best_per_call(func, n_calls, repeat=7):
    best = float('inf')
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(n_calls):
            func()
        best = min(best, (time.perf_counter() - start) / n_calls)
    return best


def main(n=60000, dim=784, batch_size=100, n_calls=2000):
    rng = numpy.random.RandomState(0)
    x = rng.rand(n, dim).astype(numpy.float32)
    t = rng.randint(0, 10, n).astype(numpy.int32)

    numpy.random.seed(0)
    iterator = SerialIterator(TupleDataset(x, t), batch_size)

    def framework():
        return concat_examples(iterator.next())

    # The floor: the same rows gathered by hand (a fresh permutation every epoch).
    state = {'order': numpy.random.permutation(n), 'pos': 0}

    def floor():
        pos = state['pos']
        if pos + batch_size > n:
            state['order'] = numpy.random.permutation(n)
            pos = 0
        idx = state['order'][pos:pos + batch_size]
        state['pos'] = pos + batch_size
        return x[idx], t[idx]

    for f in (framework, floor):  # warm up
        for _ in range(200):
            f()
    t_floor = _best_per_call(floor, n_calls)
    t_framework = _best_per_call(framework, n_calls)
    t_floor = min(t_floor, _best_per_call(floor, n_calls))
    print('numpy fancy indexing          : {:8.1f} us/batch'.format(t_floor * 1e6))
    print('SerialIterator+concat_examples: {:8.1f} us/batch'.format(t_framework * 1e6))
    print('ratio                         : {:8.2f}x (target <= 1.5x)'.format(
        t_framework / t_floor))
    return t_framework / t_floor


if __name__ == '__main__':
    main()
