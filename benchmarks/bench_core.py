"""Issue 2 benchmarks: per-op overhead of the autodiff core, and memory of a square chain.

Run: ``python benchmarks/bench_core.py`` (add ``--torch`` to time PyTorch on the same loop
when it is installed).  Figures are printed; nothing is asserted.
"""
import argparse
import gc
import os
import subprocess
import sys
import time

import numpy

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

N_OPS = 1000


def _loops():
    """The same scalar loop for each contender, as zero-argument callables."""
    import minichainer
    x0 = numpy.array(1.0, numpy.float32)
    c1, c2 = numpy.float32(1.0001), numpy.float32(0.5)

    def floor():
        # The NumPy work alone: the forward arithmetic and the backward products.
        y = x0
        for _ in range(N_OPS // 2):
            y = numpy.asarray(y * c1)
            y = numpy.asarray(y + c2)
        g = numpy.ones_like(y)
        for _ in range(N_OPS // 2):
            g = numpy.asarray(g * c1)

    def ours():
        y = minichainer.Variable(x0)
        for _ in range(N_OPS // 2):
            y = y * 1.0001
            y = y + 0.5
        y.backward()

    return {'numpy floor': floor, 'minichainer': ours}


def _torch_loop():
    import torch
    torch.set_num_threads(1)

    def loop():
        x = torch.tensor(1.0, requires_grad=True)
        y = x
        for _ in range(N_OPS // 2):
            y = y * 1.0001
            y = y + 0.5
        y.backward()
    return loop


def op_overhead(with_torch=False, rounds=30):
    """Best time per op of each contender, measured in interleaved rounds (so that a
    change of machine load affects all of them alike)."""
    loops = _loops()
    if with_torch:
        loops['pytorch'] = _torch_loop()
    best = {name: float('inf') for name in loops}
    for fn in loops.values():
        fn()
    for _ in range(rounds):
        for name, fn in loops.items():
            gc.collect()
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: t / N_OPS * 1e6 for name, t in best.items()}


_CHAINER_CHILD = r'''
import gc, time, numpy, chainer
x0 = numpy.array(1.0, numpy.float32)
def loop():
    y = chainer.Variable(x0)
    for _ in range(500):
        y = y * 1.0001
        y = y + 0.5
    y.backward()
loop()
best = float('inf')
for _ in range(30):
    gc.collect()
    start = time.perf_counter()
    loop()
    best = min(best, time.perf_counter() - start)
print(best / 1000 * 1e6)
'''


def op_overhead_chainer(python):
    """Time Chainer 7 on the same loop, in another interpreter that has it installed."""
    out = subprocess.run([python, '-c', _CHAINER_CHILD], check=True, capture_output=True,
                         text=True).stdout
    return float(out.split()[-1])


_MEMORY_CHILD = r'''
import sys, numpy
sys.path.insert(0, {root!r})
import minichainer, minichainer.functions as F

def rss_kib(field):
    with open('/proc/self/status') as f:
        for line in f:
            if line.startswith(field + ':'):
                return int(line.split()[1])

def reset_peak():
    with open('/proc/self/clear_refs', 'w') as f:
        f.write('5')

no_backprop = {no_backprop}
x = minichainer.Variable(numpy.random.rand(100, 100, 100))
baseline = rss_kib('VmRSS')
peaks = []
for _ in range(10):
    reset_peak()
    if no_backprop:
        with minichainer.no_backprop_mode():
            y = F.square(F.square(F.square(x)))
    else:
        y = F.square(F.square(F.square(x)))
        y.grad = numpy.ones_like(y.array)
        y.backward()
    del y
    x.cleargrad()
    peaks.append((rss_kib('VmHWM') - baseline) / 1024.0)
print(' '.join('%.1f' % p for p in peaks))
'''


def memory(no_backprop):
    code = _MEMORY_CHILD.format(root=os.path.dirname(HERE), no_backprop=no_backprop)
    out = subprocess.run([sys.executable, '-c', code], check=True, capture_output=True,
                         text=True).stdout.split()
    return [float(v) for v in out]


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--torch', action='store_true', help='also time PyTorch')
    parser.add_argument('--chainer-python', metavar='PYTHON',
                        help='an interpreter with Chainer 7 installed, to time it too')
    args = parser.parse_args()
    results = op_overhead(with_torch=args.torch)
    floor = results['numpy floor']
    print('per-op overhead (1000 scalar ops, forward + backward, best of 30 interleaved rounds)')
    print('  numpy floor      {:6.2f} us/op'.format(floor))
    for name in ('minichainer', 'pytorch'):
        if name in results:
            t = results[name]
            print('  {:<16} {:6.2f} us/op   ratio to floor {:.2f}x'.format(name, t, t / floor))
    if 'pytorch' in results:
        print('  minichainer / pytorch: {:.2f}'.format(
            results['minichainer'] / results['pytorch']))
    if args.chainer_python:
        c = op_overhead_chainer(args.chainer_python)
        print('  chainer 7        {:6.2f} us/op   ratio to floor {:.2f}x'.format(c, c / floor))
    with_graph = memory(False)
    without = memory(True)
    print('memory: square(square(square(x))), x float64 (100,100,100) = 7.6 MiB')
    print('  with backward    peak above baseline per repetition (MiB): {}'.format(with_graph))
    print('  no_backprop_mode peak above baseline per repetition (MiB): {}'.format(without))


if __name__ == '__main__':
    main()
