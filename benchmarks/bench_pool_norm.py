"""Pooling, normalization and activation on convnet feature maps (issue 13).

Each figure is a ratio ``minichainer time / NumPy time`` of one forward+backward pass,
measured in the same run (best of several alternating repeats), against a hand-written
NumPy floor of the same shapes, float32, one BLAS thread:

- ``max_pooling_2d(x, 2)`` on (64, 32, 32, 32): the floor gathers the four window
  offsets into contiguous planes (one transposing copy), takes their maximum, and routes
  ``gy`` (repeated over each window) through the equality mask ``x == y`` (ties
  ignored, which minichainer may not do); target <= 1.5. (A reduction over the window
  axes of the (n, c, 16, 2, 16, 2) reshape is ~15x slower in NumPy.)
- ``batch_normalization`` (training mode, running statistics updated) on
  (64, 32, 32, 32) with per-channel gamma/beta: the floor takes the mean and variance,
  normalizes, and computes the closed-form backward; target <= 1.5.
- ``relu`` on (64, 32, 32, 32): ``maximum(x, 0)`` and ``gy * (y > 0)``; target <= 1.5.
- Without a target (for information): ``average_pooling_2d(x, 2)``, the overlapping
  ``max_pooling_2d(x, 3, 2, pad=1)`` of ResNet stems, ``fixed_batch_normalization``.

Run: ``python benchmarks/bench_pool_norm.py`` (``--json`` for JSON, ``--runs N`` for the
median of N runs).
"""
import os
import sys

import numpy

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import minichainer  # noqa: E402
import minichainer.functions as F  # noqa: E402
from bench_functions import best_pair, cli, median_of_runs  # noqa: E402  (shared timing)

SHAPE = (64, 32, 32, 32)


def _fwd_bwd(func, x, gy, *params):
    xv = minichainer.Variable(x)
    pv = [minichainer.Variable(p) for p in params]
    y = func(xv, *pv)
    y.grad = gy
    y.backward()
    return (y.array, xv.grad) + tuple(p.grad for p in pv)


def _data(shape_out=None, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(*SHAPE).astype(numpy.float32)
    gy = rng.randn(*(shape_out or SHAPE)).astype(numpy.float32)
    return x, gy


def _case(name, ref, mc, target, repeat, number, rtol=1e-4, atol=1e-4):
    for a, b in zip(ref(), mc()):
        numpy.testing.assert_allclose(a, b, rtol=rtol, atol=atol)
    t_ref, t_mc = best_pair(ref, mc, repeat, number)
    return {'name': name, 'numpy_s': t_ref, 'minichainer_s': t_mc,
            'ratio': t_mc / t_ref, 'target': target}


def bench_max_pooling_2d(repeat=20, number=3):
    n, c, h, w = SHAPE
    x, gy = _data((n, c, h // 2, w // 2))

    def ref():
        # gather the four window offsets contiguously, reduce; route gy through the
        # equality mask in x's layout (ties ignored: it may give one gy twice)
        col = numpy.ascontiguousarray(
            x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 3, 5, 2, 4))
        y = numpy.maximum(numpy.maximum(col[:, :, 0, 0], col[:, :, 0, 1]),
                          numpy.maximum(col[:, :, 1, 0], col[:, :, 1, 1]))
        y_up = numpy.repeat(numpy.repeat(y, 2, axis=3), 2, axis=2)
        gx = numpy.repeat(numpy.repeat(gy, 2, axis=3), 2, axis=2)
        gx *= x == y_up
        return y, gx

    def mc():
        return _fwd_bwd(lambda v: F.max_pooling_2d(v, 2), x, gy)

    return _case('max_pooling_2d(2) fwd+bwd (64,32,32,32) f32', ref, mc, 1.5, repeat,
                 number)


def bench_max_pooling_2d_overlap(repeat=10, number=2):
    n, c, h, w = SHAPE
    oh = (h + 2 - 3 + 1) // 2 + 1   # cover_all=True
    x, gy = _data((n, c, oh, oh))

    def ref():
        # max over the nine strided views of the -inf padded input, then the
        # gradient routed to the first maximum of each window
        xp = numpy.full((n, c, h + 3, w + 3), -numpy.inf, numpy.float32)
        xp[:, :, 1:h + 1, 1:w + 1] = x
        views = [xp[:, :, j:j + 2 * oh:2, i:i + 2 * oh:2]
                 for j in range(3) for i in range(3)]
        y = views[0].copy()
        for v in views[1:]:
            numpy.maximum(y, v, out=y)
        gxp = numpy.zeros_like(xp)
        todo = numpy.ones(y.shape, bool)
        k = 0
        for j in range(3):
            for i in range(3):
                hit = views[k] == y
                hit &= todo
                todo &= ~hit
                gxp[:, :, j:j + 2 * oh:2, i:i + 2 * oh:2] += gy * hit
                k += 1
        return y, gxp[:, :, 1:h + 1, 1:w + 1]

    def mc():
        return _fwd_bwd(lambda v: F.max_pooling_2d(v, 3, 2, pad=1), x, gy)

    return _case('max_pooling_2d(3,2,pad=1) fwd+bwd (64,32,32,32) f32', ref, mc, None,
                 repeat, number)


def bench_average_pooling_2d(repeat=20, number=3):
    n, c, h, w = SHAPE
    x, gy = _data((n, c, h // 2, w // 2))
    quarter = numpy.float32(0.25)

    def ref():
        col = numpy.ascontiguousarray(
            x.reshape(n, c, h // 2, 2, w // 2, 2).transpose(0, 1, 3, 5, 2, 4))
        y = col.reshape(n, c, 4, -1).sum(axis=2).reshape(gy.shape)
        y *= quarter
        gx = numpy.repeat(numpy.repeat(gy * quarter, 2, axis=3), 2, axis=2)
        return y, gx

    def mc():
        return _fwd_bwd(lambda v: F.average_pooling_2d(v, 2), x, gy)

    return _case('average_pooling_2d(2) fwd+bwd (64,32,32,32) f32', ref, mc, None, repeat,
                 number)


def _bn_params(c):
    rng = numpy.random.RandomState(1)
    gamma = rng.uniform(0.5, 1.5, c).astype(numpy.float32)
    beta = rng.randn(c).astype(numpy.float32)
    return gamma, beta


def bench_batch_normalization(repeat=15, number=2):
    n, c, h, w = SHAPE
    x, gy = _data()
    gamma, beta = _bn_params(c)
    m = n * h * w
    eps = numpy.float32(2e-5)
    axes = (0, 2, 3)
    run_mean = numpy.zeros(c, numpy.float32)
    run_var = numpy.ones(c, numpy.float32)
    mc_mean = numpy.zeros(c, numpy.float32)
    mc_var = numpy.ones(c, numpy.float32)

    def e(v):
        return v[:, None, None]

    def ref():
        mean = x.mean(axis=axes)
        x_hat = x - e(mean)
        var = numpy.einsum('ncij,ncij->c', x_hat, x_hat) / numpy.float32(m)
        inv_std = 1 / numpy.sqrt(var + eps)
        x_hat *= e(inv_std)
        y = x_hat * e(gamma)
        y += e(beta)
        run_mean[...] = 0.9 * run_mean + 0.1 * mean
        run_var[...] = 0.9 * run_var + 0.1 * (m / (m - 1)) * var
        gbeta = gy.sum(axis=axes)
        ggamma = numpy.einsum('ncij,ncij->c', gy, x_hat)
        x_hat *= e(ggamma / m)
        gx = gy - x_hat
        gx -= e(gbeta / m)
        gx *= e(gamma * inv_std)
        return y, gx, ggamma, gbeta

    def mc():
        return _fwd_bwd(
            lambda v, g, b: F.batch_normalization(v, g, b, running_mean=mc_mean,
                                                  running_var=mc_var),
            x, gy, gamma, beta)

    return _case('batch_normalization fwd+bwd (64,32,32,32) f32', ref, mc, 1.5, repeat,
                 number, rtol=1e-3, atol=1e-3)


def bench_fixed_batch_normalization(repeat=15, number=2):
    n, c, h, w = SHAPE
    x, gy = _data()
    gamma, beta = _bn_params(c)
    rng = numpy.random.RandomState(2)
    mean = rng.randn(c).astype(numpy.float32)
    var = rng.uniform(0.5, 2, c).astype(numpy.float32)
    eps = numpy.float32(2e-5)

    def ref():
        inv_std = 1 / numpy.sqrt(var + eps)
        scale = (gamma * inv_std)[:, None, None]
        y = x * scale
        y += (beta - mean * gamma * inv_std)[:, None, None]
        gx = gy * scale
        return y, gx

    def mc():
        with minichainer.using_config('train', False):
            return _fwd_bwd(
                lambda v: F.fixed_batch_normalization(v, gamma, beta, mean, var), x, gy)

    return _case('fixed_batch_normalization fwd+bwd (64,32,32,32) f32', ref, mc, None,
                 repeat, number, rtol=1e-3, atol=1e-3)


def bench_relu(repeat=20, number=3):
    x, gy = _data()
    zero = numpy.float32(0)

    def ref():
        y = numpy.maximum(x, zero)
        gx = gy * (y > zero)
        return y, gx

    def mc():
        return _fwd_bwd(F.relu, x, gy)

    return _case('relu fwd+bwd (64,32,32,32) f32', ref, mc, 1.5, repeat, number)


BENCHES = (bench_max_pooling_2d, bench_batch_normalization, bench_relu,
           bench_average_pooling_2d, bench_max_pooling_2d_overlap,
           bench_fixed_batch_normalization)


def run(runs=1):
    """Run all benchmarks ``runs`` times; the reported ratio is the median of the runs."""
    return median_of_runs(BENCHES, runs)


def main(argv=None):
    return cli(run, __doc__.splitlines()[0], argv)


if __name__ == '__main__':
    sys.exit(main())
