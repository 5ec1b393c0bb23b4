"""Benchmarks of minichainer.functions against hand-written NumPy (issue 3).

Each figure is a ratio ``minichainer time / NumPy time`` measured in the same run
(best of several repeats, so it is robust to noise):

- linear forward+backward at x (100, 1000), W (1000, 1000) float32 vs the three
  matmuls it needs (``x @ W.T``, ``gy @ W``, ``gy.T @ x``); target <= 1.05.
- convolution_2d forward+backward at x (32, 16, 28, 28), W (32, 16, 3, 3), pad 1,
  float32, vs a hand-written im2col convolution (im2col, one matmul forward, two
  matmuls and col2im backward); target <= 1.3.

Run: ``python benchmarks/bench_functions.py`` (prints a table; ``--json`` for JSON).
"""
import argparse
import json
import os
import sys
import time

import numpy

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import minichainer  # noqa: E402
import minichainer.functions as F  # noqa: E402


def _time(fn, number):
    t0 = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - t0) / number


def best_pair(ref, mc, repeat, number):
    """Best-of-``repeat`` times of both callables, measured alternately."""
    ref()
    mc()
    t_ref = t_mc = float('inf')
    for i in range(repeat):
        # alternate which side runs first so that neither gets a systematic warm cache
        if i % 2:
            t_mc = min(t_mc, _time(mc, number))
            t_ref = min(t_ref, _time(ref, number))
        else:
            t_ref = min(t_ref, _time(ref, number))
            t_mc = min(t_mc, _time(mc, number))
    return t_ref, t_mc


def bench_linear(repeat=40, number=3):
    rng = numpy.random.RandomState(0)
    x = rng.randn(100, 1000).astype(numpy.float32)
    W = rng.randn(1000, 1000).astype(numpy.float32)
    gy = rng.randn(100, 1000).astype(numpy.float32)

    def ref():
        y = x @ W.T
        gx = gy @ W
        gW = gy.T @ x
        return y, gx, gW

    def mc():
        xv = minichainer.Variable(x)
        Wv = minichainer.Variable(W)
        y = F.linear(xv, Wv)
        y.grad = gy
        y.backward()
        return y.array, xv.grad, Wv.grad

    r, m = ref(), mc()
    for a, b in zip(r, m):
        numpy.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-2)
    t_ref, t_mc = best_pair(ref, mc, repeat, number)
    return {'name': 'linear fwd+bwd (100,1000)x(1000,1000) f32', 'numpy_s': t_ref,
            'minichainer_s': t_mc, 'ratio': t_mc / t_ref, 'target': 1.05}


def _ref_conv_fwd_bwd(x, W, gy, pad):
    n, c, h, w = x.shape
    oc, _, kh, kw = W.shape
    oh = h + 2 * pad - kh + 1
    ow = w + 2 * pad - kw + 1
    # forward: im2col into a (c*kh*kw, n*oh*ow) matrix, one matmul
    xp = numpy.zeros((c, n, h + 2 * pad, w + 2 * pad), dtype=x.dtype)
    xp[:, :, pad:pad + h, pad:pad + w] = x.transpose(1, 0, 2, 3)
    col = numpy.empty((c, kh, kw, n, oh, ow), dtype=x.dtype)
    for j in range(kh):
        for i in range(kw):
            col[:, j, i] = xp[:, :, j:j + oh, i:i + ow]
    col = col.reshape(c * kh * kw, n * oh * ow)
    W2 = W.reshape(oc, -1)
    y = (W2 @ col).reshape(oc, n, oh, ow).transpose(1, 0, 2, 3)
    # backward: gW = gy col^T, gcol = W^T gy, col2im
    gy2 = gy.transpose(1, 0, 2, 3).reshape(oc, -1)
    gW = (gy2 @ col.T).reshape(W.shape)
    gcol = (W2.T @ gy2).reshape(c, kh, kw, n, oh, ow)
    gxp = numpy.zeros((n, c, h + 2 * pad, w + 2 * pad), dtype=x.dtype)
    gxt = gxp.transpose(1, 0, 2, 3)
    for j in range(kh):
        for i in range(kw):
            gxt[:, :, j:j + oh, i:i + ow] += gcol[:, j, i]
    gx = gxp[:, :, pad:pad + h, pad:pad + w]
    return y, gx, gW


def bench_convolution_2d(repeat=30, number=2):
    rng = numpy.random.RandomState(0)
    x = rng.randn(32, 16, 28, 28).astype(numpy.float32)
    W = rng.randn(32, 16, 3, 3).astype(numpy.float32)
    gy = rng.randn(32, 32, 28, 28).astype(numpy.float32)

    def ref():
        return _ref_conv_fwd_bwd(x, W, gy, 1)

    def mc():
        xv = minichainer.Variable(x)
        Wv = minichainer.Variable(W)
        y = F.convolution_2d(xv, Wv, pad=1)
        y.grad = gy
        y.backward()
        return y.array, xv.grad, Wv.grad

    r, m = ref(), mc()
    for a, b in zip(r, m):
        numpy.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-2)
    t_ref, t_mc = best_pair(ref, mc, repeat, number)
    return {'name': 'convolution_2d fwd+bwd (32,16,28,28) 3x3 -> 32 f32', 'numpy_s': t_ref,
            'minichainer_s': t_mc, 'ratio': t_mc / t_ref, 'target': 1.3}


def run(runs=1):
    """Run all benchmarks ``runs`` times; return one result dict per benchmark.

    With several runs the reported ratio is the median of the per-run ratios (the
    machine may be shared; a single run can be disturbed by other processes).
    """
    return median_of_runs((bench_linear, bench_convolution_2d), runs)


def median_of_runs(benches, runs):
    """Run each benchmark ``runs`` times; keep the run of median ratio, with every ratio."""
    results = []
    for bench in benches:
        rs = sorted((bench() for _ in range(runs)), key=lambda r: r['ratio'])
        med = dict(rs[len(rs) // 2])
        med['ratios'] = [round(r['ratio'], 3) for r in rs]
        results.append(med)
    return results


def print_results(results):
    """Print one line per result of `median_of_runs` (target None: no target)."""
    for r in results:
        if r['target'] is None:
            status = '(no target)'
        else:
            status = 'ok' if r['ratio'] <= r['target'] else 'SLOW'
            status = '(target <= {}) {}'.format(r['target'], status)
        print('{:<55s} numpy {:8.3f} ms  minichainer {:8.3f} ms  ratio {:5.3f} {}'.format(
            r['name'], r['numpy_s'] * 1e3, r['minichainer_s'] * 1e3, r['ratio'], status))
        if len(r['ratios']) > 1:
            print('    ratios of {} runs: {}'.format(len(r['ratios']), r['ratios']))


def cli(run, description, argv=None):
    """The command line of a benchmark script: `--runs N` and `--json`."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument('--json', action='store_true', help='print JSON')
    parser.add_argument('--runs', type=int, default=1,
                        help='repeat each benchmark and report the median ratio')
    args = parser.parse_args(argv)
    results = run(args.runs)
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print_results(results)
    return 0


def main(argv=None):
    return cli(run, __doc__.splitlines()[0], argv)


if __name__ == '__main__':
    sys.exit(main())
