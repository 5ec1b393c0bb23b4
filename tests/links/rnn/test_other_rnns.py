import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer.variable import Variable

from .. import _util


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _lin(link, x):
    out = x @ link.W.array.T
    return out if link.b is None else out + link.b.array


def _gates(z, n):
    z = z.reshape(len(z), n, 4)
    return z[..., 0], z[..., 1], z[..., 2], z[..., 3]


def test_peephole_lstm_matches_reference():
    link = L.StatefulPeepholeLSTM(3, 2)
    assert [n for n, _ in link.namedlinks(skipself=True)] == [
        '/lateral', '/peep_f', '/peep_i', '/peep_o', '/upward']
    xs = [np.random.randn(4, 3).astype(np.float32) for _ in range(2)]
    c = np.zeros((4, 2), np.float32)
    h = None
    for x in xs:
        z = _lin(link.upward, x) + (0 if h is None else _lin(link.lateral, h))
        a, i, f, o = _gates(z, 2)
        i = _sigmoid(i + _lin(link.peep_i, c))
        f = _sigmoid(f + _lin(link.peep_f, c))
        c = np.tanh(a) * i + f * c
        h = _sigmoid(o + _lin(link.peep_o, c)) * np.tanh(c)
        y = link(x)
        np.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
    link.reset_state()
    assert link.h is None and link.c is None


def test_zoneout_lstm_in_test_mode_is_plain_lstm_and_zones_out_in_training():
    link = L.StatefulZoneoutLSTM(3, 2, c_ratio=0.5, h_ratio=0.5)
    x = np.random.randn(4, 3).astype(np.float32)
    with minichainer.using_config('train', False):
        y = link(x)
    a, i, f, o = _gates(_lin(link.upward, x), 2)
    c = np.tanh(a) * _sigmoid(i)
    np.testing.assert_allclose(y.array, _sigmoid(o) * np.tanh(c), rtol=1e-5, atol=1e-6)
    link.reset_state()
    link.set_state(Variable(np.zeros((4, 2), np.float32)),
                   Variable(np.full((4, 2), 7, np.float32)))
    np.random.seed(0)
    y = link(x)
    kept = y.array == 7
    assert kept.any() and not kept.all()
    with pytest.raises(ValueError, match='train'):
        L.StatefulZoneoutLSTM(3, 2, train=True)


def test_mgu():
    link = L.StatelessMGU(3, 2)
    h = np.random.randn(4, 2).astype(np.float32)
    x = np.random.randn(4, 3).astype(np.float32)
    f = _sigmoid(_lin(link.W_f, np.concatenate([h, x], 1)))
    h_bar = np.tanh(_lin(link.W_h, np.concatenate([f * h, x], 1)))
    np.testing.assert_allclose(link(h, x).array, f * h_bar + (1 - f) * h, rtol=1e-5,
                               atol=1e-6)
    stateful = L.StatefulMGU(3, 2)
    y1 = stateful(x)
    assert y1.shape == (4, 2) and stateful.h is y1
    stateful.set_state(Variable(h))
    assert stateful(x).shape == (4, 2)
    with pytest.raises(TypeError, match='Variable'):
        stateful.set_state(h)


def test_simplified_dropconnect():
    np.random.seed(1)
    link = L.SimplifiedDropconnect(3, 2, ratio=0.5)
    np.testing.assert_allclose(link.W.array, _util.lecun(1, (2, 3)), rtol=1e-6)
    x = np.random.randn(4, 3).astype(np.float32)
    y = link(x, train=False)
    np.testing.assert_allclose(y.array, _lin(link, x), rtol=1e-5, atol=1e-6)
    mask = np.ones((4, 2, 3), bool)
    mask[:, 0] = False
    y = link(x, mask=mask)
    expected = x @ (link.W.array * 2 * mask[0]).T + link.b.array
    np.testing.assert_allclose(y.array, expected, rtol=1e-5, atol=1e-6)
    lazy = L.SimplifiedDropconnect(None, 2, nobias=True)
    assert lazy(x, train=False).shape == (4, 2) and lazy.b is None


def test_serialization(tmp_path):
    _util.check_npz_round_trip(lambda: L.StatefulPeepholeLSTM(3, 2), tmp_path)
    _util.check_npz_round_trip(lambda: L.StatefulMGU(3, 2), tmp_path)
    _util.check_npz_round_trip(lambda: L.StatefulZoneoutLSTM(3, 2), tmp_path)
