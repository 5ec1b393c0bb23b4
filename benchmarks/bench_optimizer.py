"""One Adam step over a 784-1000-1000-10 MLP: minichainer vs a hand-written in-place numpy
Adam on the same shapes, measured in the same run.

The floor is the cheapest correct in-place Adam (``numpy.subtract(g, m, out=tmp)`` style,
one scratch buffer per parameter); minichainer runs ``optimizer.update()`` with the
gradients already computed. Prints the time per step of both and their ratio (target <=
1.1x). Run: ``python benchmarks/bench_optimizer.py``.
"""
import math
import os
import sys
import time

import numpy

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))

import minichainer as mc  # noqa: E402
from minichainer import optimizers  # noqa: E402

SIZES = (784, 1000, 1000, 10)


class _Linear(mc.Link):
    def __init__(self, n_in, n_out, rng):
        super().__init__()
        with self.init_scope():
            self.W = mc.Parameter(
                (rng.standard_normal((n_out, n_in)) / math.sqrt(n_in)).astype(numpy.float32))
            self.b = mc.Parameter(numpy.zeros(n_out, numpy.float32))


class _MLP(mc.ChainList):
    def __init__(self, rng):
        super().__init__(*[_Linear(a, b, rng) for a, b in zip(SIZES[:-1], SIZES[1:])])


def _interleaved(funcs, n_rounds, n_calls):
    """Time ``n_calls`` calls of each function in turn, ``n_rounds`` times; return the
    best time per call of each (the minimum filters out other processes' noise)."""
    best = [float('inf')] * len(funcs)
    perf_counter = time.perf_counter
    for _ in range(n_rounds):
        for i, func in enumerate(funcs):
            start = perf_counter()
            for _ in range(n_calls):
                func()
            best[i] = min(best[i], (perf_counter() - start) / n_calls)
    return best


def main(n_rounds=40, n_calls=3):
    rng = numpy.random.default_rng(0)
    model = _MLP(rng)
    for p in model.params():
        p.grad = (rng.standard_normal(p.shape) * 1e-2).astype(numpy.float32)
    opt = optimizers.Adam().setup(model)

    # the floor: plain numpy in-place Adam with one scratch buffer per parameter
    alpha, beta1, beta2, eps = 0.001, 0.9, 0.999, 1e-8
    arrays = [(p.array.copy(), p.grad.copy()) for p in model.params()]
    states = [(numpy.zeros_like(a), numpy.zeros_like(a), numpy.empty_like(a))
              for a, _ in arrays]
    floor_t = [0]

    def floor():
        floor_t[0] += 1
        t = floor_t[0]
        alpha_t = alpha * math.sqrt(1 - beta2 ** t) / (1 - beta1 ** t)
        for (p, g), (m, v, tmp) in zip(arrays, states):
            numpy.subtract(g, m, out=tmp)
            tmp *= 1 - beta1
            m += tmp
            numpy.multiply(g, g, out=tmp)
            tmp -= v
            tmp *= 1 - beta2
            v += tmp
            numpy.sqrt(v, out=tmp)
            tmp += eps
            numpy.divide(alpha_t, tmp, out=tmp)
            tmp *= m
            p -= tmp

    framework = opt.update
    framework()
    floor()  # warm up (state allocation)
    fw, fl = _interleaved([framework, floor], n_rounds, n_calls)

    # both computed the same thing
    for p, (a, _) in zip(model.params(), arrays):
        numpy.testing.assert_allclose(p.array, a, rtol=1e-5, atol=1e-7)

    n_params = sum(p.size for p in model.params())
    print('Adam step, MLP {} ({} parameters)'.format('-'.join(map(str, SIZES)), n_params))
    print('  minichainer optimizer.update(): {:8.3f} ms'.format(fw * 1e3))
    print('  hand-written numpy Adam:        {:8.3f} ms'.format(fl * 1e3))
    print('  ratio: {:.3f}x (target <= 1.10x)'.format(fw / fl))
    return {'minichainer_ms': fw * 1e3, 'floor_ms': fl * 1e3, 'ratio': fw / fl}


if __name__ == '__main__':
    main()
