import itertools

import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check


def _brute(cost, seqs_x, seqs_y):
    """Per-sequence (logZ - gold score) and Viterbi path by enumeration."""
    K = cost.shape[0]
    losses, paths, best = [], [], []
    for x, y in zip(seqs_x, seqs_y):
        def score(p):
            return sum(x[t, p[t]] for t in range(len(p))) + sum(
                cost[p[t - 1], p[t]] for t in range(1, len(p)))
        all_s = {p: score(p) for p in itertools.product(range(K), repeat=len(x))}
        vals = numpy.array(list(all_s.values()))
        logz = numpy.log(numpy.exp(vals - vals.max()).sum()) + vals.max()
        losses.append(logz - score(tuple(y)))
        bp = max(all_s, key=all_s.get)
        paths.append(bp)
        best.append(all_s[bp])
    return numpy.array(losses), paths, numpy.array(best)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_crf1d_and_argmax(reduce):
    rng = numpy.random.RandomState(0)
    K = 3
    lengths = [3, 2, 1]  # sorted in decreasing order
    cost = rng.randn(K, K)
    seqs_x = [rng.randn(n, K) for n in lengths]
    seqs_y = [rng.randint(0, K, n).astype(numpy.int32) for n in lengths]
    # time-major: xs[t] holds the t-th element of every sequence longer than t
    xs = [numpy.stack([s[t] for s in seqs_x if len(s) > t]) for t in range(3)]
    ys = [numpy.array([s[t] for s in seqs_y if len(s) > t], numpy.int32) for t in range(3)]
    ref_loss, ref_paths, ref_best = _brute(cost, seqs_x, seqs_y)
    loss = F.crf1d(cost, xs, ys, reduce=reduce)
    expect = ref_loss.sum() / 3 if reduce == 'mean' else ref_loss
    numpy.testing.assert_allclose(loss.array, expect, rtol=1e-10)

    def f(cost, *xs_):
        return F.crf1d(cost, list(xs_), ys, reduce=reduce)

    gy = None if reduce == 'mean' else rng.randn(3)
    gradient_check.check_backward(f, [cost] + xs, gy, atol=1e-6, rtol=1e-5)

    score, path = F.argmax_crf1d(cost, xs)
    numpy.testing.assert_allclose(score.array, ref_best, rtol=1e-10)
    for i, p in enumerate(ref_paths):
        assert tuple(int(path[t][i]) for t in range(len(p))) == p
    with pytest.raises(ValueError):
        F.crf1d(cost, xs, ys, reduce='sum')
