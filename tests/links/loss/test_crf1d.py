import itertools

import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer import gradient_check
from minichainer import initializers

from . import _common

N_LABEL = 3


def _score(x, y, cost):
    # x: (L, K) unary scores of one sequence, y: its labels.
    return sum(x[i, y[i]] for i in range(len(y))) + sum(
        cost[a, b] for a, b in zip(y[:-1], y[1:]))


def _nll(x, y, cost):
    z = sum(np.exp(_score(x, path, cost))
            for path in itertools.product(range(cost.shape[0]), repeat=len(y)))
    return np.log(z) - _score(x, y, cost)


def _best(x, cost):
    paths = list(itertools.product(range(cost.shape[0]), repeat=len(x)))
    scores = [_score(x, p, cost) for p in paths]
    return max(scores), list(paths[int(np.argmax(scores))])


def _data(lengths, dtype=np.float32, seed=0):
    rs = np.random.RandomState(seed)
    xs = [rs.uniform(-1, 1, (n, N_LABEL)).astype(dtype) for n in lengths]
    ys = [rs.randint(0, N_LABEL, n).astype(np.int32) for n in lengths]
    return xs, ys


def _time_major(seqs):
    # Batch-major sequences sorted by decreasing length -> time-major steps.
    return [np.stack([s[t] for s in seqs if len(s) > t]) for t in range(len(seqs[0]))]


def _make(seed=0):
    cost = np.random.RandomState(seed).uniform(-1, 1, (N_LABEL, N_LABEL)).astype(np.float32)
    return L.CRF1d(N_LABEL, initial_cost=cost)


def test_initial_cost():
    link = L.CRF1d(4)
    assert link.cost.shape == (4, 4) and link.cost.dtype == np.float32
    assert (link.cost.array == 0).all()
    with minichainer.using_config('dtype', np.float16):
        assert L.CRF1d(2).cost.dtype == np.float16
    np.random.seed(0)
    link = L.CRF1d(3, initial_cost=initializers.Uniform(1))
    np.random.seed(0)
    np.testing.assert_array_equal(
        link.cost.array, np.random.uniform(-1, 1, (3, 3)).astype(np.float32))
    link = L.CRF1d(2, initial_cost=2.5)
    assert (link.cost.array == 2.5).all()
    assert [name for name, _ in link.namedparams()] == ['/cost']


@pytest.mark.parametrize('dtype,tol', [(np.float16, 5e-3), (np.float32, 1e-5),
                                       (np.float64, 1e-10)])
def test_forward_time_major_matches_brute_force(dtype, tol):
    lengths = [4, 3, 3, 1]  # already sorted
    seqs, labels = _data(lengths, dtype)
    with minichainer.using_config('dtype', dtype):
        link = _make()
        link.cost.array = link.cost.array.astype(dtype)
    cost = link.cost.array.astype(np.float64)
    expected = [_nll(x.astype(np.float64), y, cost) for x, y in zip(seqs, labels)]
    loss = link(_time_major(seqs), _time_major(labels), reduce='no')
    assert loss.shape == (4,) and loss.dtype == dtype
    np.testing.assert_allclose(loss.array, expected, rtol=tol, atol=tol)
    mean = link(_time_major(seqs), _time_major(labels))
    assert mean.shape == ()
    np.testing.assert_allclose(mean.array, np.sum(expected) / 4, rtol=tol, atol=tol)


def test_transpose_sorts_by_length():
    lengths = [2, 4, 1, 3]
    xs, ys = _data(lengths)
    link = _make()
    cost = link.cost.array.astype(np.float64)
    nll = [_nll(x, y, cost) for x, y in zip(xs, ys)]
    loss = link(xs, ys, transpose=True)
    np.testing.assert_allclose(loss.array, np.mean(nll), rtol=1e-5)
    # With reduce='no' the losses come sorted by decreasing length, as in Chainer.
    per = link(xs, ys, reduce='no', transpose=True)
    np.testing.assert_allclose(per.array, [nll[i] for i in (1, 3, 0, 2)], rtol=1e-5)


def test_argmax_matches_brute_force():
    lengths = [2, 4, 1, 3]
    xs, _ = _data(lengths, seed=3)
    link = _make(seed=4)
    cost = link.cost.array.astype(np.float64)
    best = [_best(x.astype(np.float64), cost) for x in xs]
    score, path = link.argmax(xs, transpose=True)
    # The path comes back per sequence in the order of xs; the score in sorted order.
    assert [p.tolist() for p in path] == [b[1] for b in best]
    np.testing.assert_allclose(score.array, [best[i][0] for i in (1, 3, 0, 2)], rtol=1e-5)
    order = [1, 3, 0, 2]
    score_tm, path_tm = link.argmax(_time_major([xs[i] for i in order]))
    np.testing.assert_array_equal(score_tm.array, score.array)
    assert len(path_tm) == 4 and [len(p) for p in path_tm] == [4, 3, 2, 1]
    assert path_tm[0].tolist() == [best[i][1][0] for i in order]


def test_same_values_as_chainer():
    # Computed once with Chainer 7.8.1.
    link = L.CRF1d(3, initial_cost=np.arange(9, dtype=np.float32).reshape(3, 3) / 10)
    xs = [np.random.RandomState(i).uniform(-1, 1, (n, 3)).astype(np.float32)
          for i, n in enumerate([2, 4, 3])]
    ys = [np.random.RandomState(10 + i).randint(0, 3, n).astype(np.int32)
          for i, n in enumerate([2, 4, 3])]
    np.testing.assert_allclose(link(xs, ys, transpose=True).array, 2.984475, rtol=1e-6)
    np.testing.assert_allclose(link(xs, ys, reduce='no', transpose=True).array,
                               [4.351067, 2.2883115, 2.3140464], rtol=1e-6)
    score, path = link.argmax(xs, transpose=True)
    np.testing.assert_allclose(score.array, [1.8893001, 1.4985365, 1.297315], rtol=1e-6)
    assert [p.tolist() for p in path] == [[2, 2], [1, 2, 2, 2], [2, 2, 1]]


def test_gradients():
    xs, ys = _data([3, 2, 2], np.float64, seed=5)
    xs_tm, ys_tm = _time_major(xs), _time_major(ys)
    with minichainer.using_config('dtype', np.float64):
        link = L.CRF1d(N_LABEL, initial_cost=initializers.Uniform(1))
    gy = np.random.uniform(-1, 1, (3,))

    def f(*xs):
        return link(list(xs), ys_tm, reduce='no')

    gradient_check.check_backward(f, tuple(xs_tm), gy, params=(link.cost,), dtype=np.float64)
    ggxs = tuple(np.random.uniform(-1, 1, x.shape) for x in xs_tm)
    gradient_check.check_double_backward(
        f, tuple(xs_tm), gy, ggxs, params=(link.cost,),
        params_grad_grad=(np.random.uniform(-1, 1, (3, 3)),), dtype=np.float64)


def test_bad_arguments():
    with pytest.raises(TypeError, match='CRF1d: n_label must be an int'):
        L.CRF1d(2.0)
    xs, ys = _data([2, 2])
    with pytest.raises(ValueError, match="'mean' and 'no'"):
        _make()(xs, ys, reduce='sum', transpose=True)


def test_serialization_copy_and_device(tmp_path):
    _common.check_npz_copy_and_device(
        lambda: L.CRF1d(3, initial_cost=initializers.Normal()), ['cost'], tmp_path)
