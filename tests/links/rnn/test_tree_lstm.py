import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer import gradient_check

from .. import _util


def _sig(v):
    return 1 / (1 + np.exp(-v))


def _blocks(m, n):
    return np.split(m, n, axis=-1)


def _child_sum_ref(link, cs, hs, x):
    """Tai et al.'s Child-Sum TreeLSTM written out with NumPy."""
    wa, wi, wo, wf = _blocks(link.W_x.W.array.T, 4)
    ba, bi, bo, bf = _blocks(link.W_x.b.array, 4)
    ua, ui, uo = _blocks(link.W_h_aio.W.array.T, 3)
    uf = link.W_h_f.W.array.T
    h_sum = sum(hs) if hs else np.zeros((len(x), uf.shape[0]), x.dtype)
    a = np.tanh(x @ wa + h_sum @ ua + ba)
    i = _sig(x @ wi + h_sum @ ui + bi)
    o = _sig(x @ wo + h_sum @ uo + bo)
    c = a * i
    for c_k, h_k in zip(cs, hs):
        c = c + _sig(x @ wf + h_k @ uf + bf) * c_k
    return c, o * np.tanh(c)


def _nary_ref(link, cs, hs, x):
    """Bowman et al.'s N-ary TreeLSTM: every child has its own matrix for all gates."""
    n = link.n_ary
    pre = x @ link.W_x.W.array.T + link.W_x.b.array
    for k, h in enumerate(hs, start=1):
        pre = pre + h @ getattr(link, 'W_h%d' % k).W.array.T
    gates = _blocks(pre, 3 + n)
    c = np.tanh(gates[0]) * _sig(gates[1])
    for k in range(n):
        c = c + _sig(gates[3 + k]) * cs[k]
    return c, _sig(gates[2]) * np.tanh(c)


def _make(kind, n, in_size=3, out_size=4, dtype=np.float64, seed=0):
    np.random.seed(seed)
    if kind == 'child_sum':
        link = L.ChildSumTreeLSTM(in_size, out_size)
    else:
        link = L.NaryTreeLSTM(in_size, out_size, n_ary=n)
    for p in link.params():
        p.array[...] = np.random.uniform(-1, 1, p.shape)
    return link if dtype == np.float32 else _to64(link)


def _to64(link):
    for p in link.params():
        p.array = p.array.astype(np.float64)
    return link


def _states(n, batch=5, in_size=3, out_size=4, dtype=np.float64, seed=1):
    rng = np.random.RandomState(seed)
    cs = [rng.uniform(-1, 1, (batch, out_size)).astype(dtype) for _ in range(n)]
    hs = [rng.uniform(-1, 1, (batch, out_size)).astype(dtype) for _ in range(n)]
    return cs, hs, rng.uniform(-1, 1, (batch, in_size)).astype(dtype)


CASES = [('child_sum', 0), ('child_sum', 1), ('child_sum', 3), ('nary', 1), ('nary', 2),
         ('nary', 3)]


def _ref(kind):
    return _child_sum_ref if kind == 'child_sum' else _nary_ref


@pytest.mark.parametrize('kind, n', CASES)
@pytest.mark.parametrize('dtype', [np.float32, np.float64])
def test_forward(kind, n, dtype):
    link = _make(kind, n, dtype=dtype)
    cs, hs, x = _states(n, dtype=dtype)
    c, h = link(*cs, *hs, x)
    assert c.dtype == dtype and h.dtype == dtype and c.shape == (5, 4)
    c_ref, h_ref = _ref(kind)(link, cs, hs, x)
    np.testing.assert_allclose(c.array, c_ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('kind, n', [c for c in CASES if c[1] > 0])
def test_none_stands_for_zeros(kind, n):
    link = _make(kind, n)
    cs, hs, x = _states(n)
    zeros = np.zeros_like(cs[0])
    c, h = link(*[None] * n, *[None] * n, x)
    c_ref, h_ref = _ref(kind)(link, [zeros] * n, [zeros] * n, x)
    np.testing.assert_allclose(c.array, c_ref, rtol=1e-12)
    np.testing.assert_allclose(h.array, h_ref, rtol=1e-12)
    c, h = link(*cs, *hs, None)
    c_ref, h_ref = _ref(kind)(link, cs, hs, np.zeros_like(x))
    np.testing.assert_allclose(c.array, c_ref, rtol=1e-12)
    np.testing.assert_allclose(h.array, h_ref, rtol=1e-12)
    mixed_cs = [None] + cs[1:]
    mixed_hs = hs[:-1] + [None]
    c, h = link(*mixed_cs, *mixed_hs, x)
    c_ref, h_ref = _ref(kind)(link, [zeros] + cs[1:], hs[:-1] + [zeros], x)
    np.testing.assert_allclose(c.array, c_ref, rtol=1e-12)
    with pytest.raises(ValueError, match='all inputs'):
        link(*[None] * (2 * n + 1))


def test_child_sum_ignores_child_order():
    link = _make('child_sum', 3)
    cs, hs, x = _states(3)
    c1, h1 = link(*cs, *hs, x)
    c2, h2 = link(cs[2], cs[0], cs[1], hs[2], hs[0], hs[1], x)
    np.testing.assert_allclose(c1.array, c2.array, rtol=1e-12)
    np.testing.assert_allclose(h1.array, h2.array, rtol=1e-12)


def test_nary_depends_on_child_order():
    link = _make('nary', 2)
    cs, hs, x = _states(2)
    c1, _ = link(*cs, *hs, x)
    c2, _ = link(cs[1], cs[0], hs[1], hs[0], x)
    assert not np.allclose(c1.array, c2.array)


@pytest.mark.parametrize('kind, n', [('child_sum', 0), ('child_sum', 2), ('nary', 2)])
@pytest.mark.parametrize('given', ['both', 'gc', 'gh'])
def test_backward(kind, n, given):
    link = _make(kind, n)
    cs, hs, x = _states(n, batch=2)
    rng = np.random.RandomState(3)
    gc = rng.uniform(-1, 1, (2, 4)) if given != 'gh' else None
    gh = rng.uniform(-1, 1, (2, 4)) if given != 'gc' else None
    gradient_check.check_backward(link, tuple(cs + hs + [x]), (gc, gh),
                                  params=tuple(link.params()), atol=1e-6, rtol=1e-5)


def test_parameters_and_initialization():
    np.random.seed(7)
    link = L.ChildSumTreeLSTM(3, 2)
    assert sorted(n for n, _ in link.namedparams()) == [
        '/W_h_aio/W', '/W_h_f/W', '/W_x/W', '/W_x/b']
    assert link.W_h_aio.b is None and link.W_h_f.b is None
    assert (link.in_size, link.state_size) == (3, 2)
    # LeCunNormal draws from numpy's global RNG in creation order: W_x, W_h_aio, W_h_f.
    np.random.seed(7)
    expected = [np.random.normal(0, np.sqrt(1 / fan_in), shape).astype(np.float32)
                for shape, fan_in in [((8, 3), 3), ((6, 2), 2), ((2, 2), 2)]]
    for p, e in zip((link.W_x.W, link.W_h_aio.W, link.W_h_f.W), expected):
        np.testing.assert_array_equal(p.array, e)
    np.testing.assert_array_equal(link.W_x.b.array, np.zeros(8, np.float32))

    np.random.seed(7)
    link = L.NaryTreeLSTM(3, 2, n_ary=3)
    assert sorted(n for n, _ in link.namedparams()) == [
        '/W_h1/W', '/W_h2/W', '/W_h3/W', '/W_x/W', '/W_x/b']
    assert link.n_ary == 3 and link.W_h1.W.shape == (12, 2) and link.W_x.W.shape == (12, 3)
    np.random.seed(7)
    expected = [np.random.normal(0, np.sqrt(1 / fan_in), shape).astype(np.float32)
                for shape, fan_in in [((12, 3), 3)] + [((12, 2), 2)] * 3]
    for p, e in zip((link.W_x.W, link.W_h1.W, link.W_h2.W, link.W_h3.W), expected):
        np.testing.assert_array_equal(p.array, e)
    assert L.NaryTreeLSTM(3, 2).n_ary == 2


@pytest.mark.parametrize('make', [lambda: L.ChildSumTreeLSTM(3, 2),
                                  lambda: L.NaryTreeLSTM(3, 2, n_ary=2)])
def test_serialization(make, tmp_path):
    src, dst = _util.check_npz_round_trip(make, tmp_path)
    with np.load(str(tmp_path / 'link.npz')) as f:
        assert sorted(f.files) == sorted(n.lstrip('/') for n, _ in src.namedparams())
    cs, hs, x = _states(2, out_size=2, dtype=np.float32)
    for a, b in zip(src(*cs, *hs, x), dst(*cs, *hs, x)):
        np.testing.assert_array_equal(a.array, b.array)
    _util.check_copy_modes(src)


def test_argument_errors():
    link = L.ChildSumTreeLSTM(3, 2)
    with pytest.raises(ValueError, match='2 \\* N \\+ 1'):
        link(np.zeros((1, 2), 'f'), np.zeros((1, 3), 'f'))
    link = L.NaryTreeLSTM(3, 2, n_ary=2)
    with pytest.raises(ValueError, match='got 3'):
        link(np.zeros((1, 2), 'f'), np.zeros((1, 2), 'f'), np.zeros((1, 3), 'f'))
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match='n_ary must be an int >= 1'):
            L.NaryTreeLSTM(3, 2, n_ary=bad)


def test_training_step_decreases_loss():
    np.random.seed(0)
    link = L.NaryTreeLSTM(3, 4, n_ary=2)
    opt = minichainer.optimizers.Adam(0.05)
    opt.setup(link)
    cs, hs, x = _states(2, dtype=np.float32)
    target = np.full((5, 4), 0.5, np.float32)
    losses = []
    for _ in range(20):
        _, h = link(*cs, *hs, x)
        loss = minichainer.functions.mean_squared_error(h, target)
        link.cleargrads()
        loss.backward()
        opt.update()
        losses.append(float(loss.array))
    assert losses[-1] < 0.5 * losses[0]
