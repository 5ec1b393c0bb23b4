import numpy as np
import pytest

import minichainer.links as L
from minichainer.variable import Variable

from .. import _util


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def lstm_ref(c, h, x, link):
    z = x @ link.upward.W.array.T + link.upward.b.array
    if h is not None:
        z = z + h @ link.lateral.W.array.T
    n = z.shape[1] // 4
    z = z.reshape(len(z), n, 4)  # Chainer interleaves the gates: a, i, f, o per unit
    a, i, f, o = np.tanh(z[..., 0]), _sigmoid(z[..., 1]), _sigmoid(z[..., 2]), \
        _sigmoid(z[..., 3])
    c_new = a * i + f * (np.zeros_like(a) if c is None else c)
    return c_new, o * np.tanh(c_new)


def test_initialization_matches_chainer_draw_order():
    np.random.seed(7)
    link = L.LSTM(3, 2)
    np.random.seed(7)
    lateral = np.empty((8, 2), np.float32)
    upward = np.empty((8, 3), np.float32)
    for i in range(0, 8, 2):
        lateral[i:i + 2] = np.random.normal(0, np.sqrt(1 / 2.), (2, 2))
        upward[i:i + 2] = np.random.normal(0, np.sqrt(1 / 3.), (2, 3))
    np.testing.assert_array_equal(link.lateral.W.array, lateral)
    np.testing.assert_array_equal(link.upward.W.array, upward)
    np.testing.assert_array_equal(link.upward.b.array, [0, 0, 1, 0, 0, 0, 1, 0])
    assert link.lateral.b is None
    assert [n for n, _ in link.namedparams()] == ['/lateral/W', '/upward/W', '/upward/b']


def test_stateful_forward_matches_reference():
    link = L.LSTM(3, 4)
    xs = [np.random.randn(2, 3).astype(np.float32) for _ in range(3)]
    c = h = None
    for x in xs:
        y = link(x)
        c, h = lstm_ref(c, h, x, link)
        np.testing.assert_allclose(y.array, h, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(link.c.array, c, rtol=1e-5, atol=1e-6)
    link.reset_state()
    assert link.c is None and link.h is None


def test_shrinking_batch_keeps_rest_of_state():
    link = L.LSTM(3, 2)
    link(np.random.randn(3, 3).astype(np.float32))
    h_before = link.h.array.copy()
    y = link(np.random.randn(2, 3).astype(np.float32))
    assert y.shape == (2, 2) and link.h.shape == (3, 2)
    np.testing.assert_array_equal(link.h.array[2], h_before[2])
    with pytest.raises(TypeError, match='batch size'):
        link(np.random.randn(4, 3).astype(np.float32))


def test_set_state_and_lazy_init():
    link = L.LSTM(None, 2)
    assert link.upward.W.array is None
    link.set_state(Variable(np.zeros((1, 2), np.float32)),
                   Variable(np.zeros((1, 2), np.float32)))
    y = link(np.ones((1, 5), np.float32))
    assert link.upward.W.shape == (8, 5) and y.shape == (1, 2)
    assert L.LSTM(4).state_size == 4
    with pytest.raises(TypeError, match='Variable'):
        link.set_state(np.zeros((1, 2)), np.zeros((1, 2)))


def test_gradient_flows_through_time():
    link = L.LSTM(2, 2)
    link.cleargrads()
    x = Variable(np.random.randn(1, 2).astype(np.float32))
    link(x)
    y = link(x)
    y.grad = np.ones_like(y.array)
    y.backward()
    assert link.lateral.W.grad is not None and np.abs(link.lateral.W.grad).sum() > 0
    assert x.grad is not None


def test_stateless_lstm():
    link = L.StatelessLSTM(3, 2)
    x = np.random.randn(2, 3).astype(np.float32)
    c, h = link(None, None, x)
    c_ref, h_ref = lstm_ref(None, None, x, link)
    np.testing.assert_allclose(h.array, h_ref, rtol=1e-5, atol=1e-6)
    c2, h2 = link(c, h, x)
    c2_ref, h2_ref = lstm_ref(c_ref, h_ref, x, link)
    np.testing.assert_allclose(c2.array, c2_ref, rtol=1e-5, atol=1e-6)
    lazy = L.StatelessLSTM(2)
    lazy(None, None, x)
    assert lazy.upward.W.shape == (8, 3)


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.LSTM(3, 2), tmp_path)
    _util.check_copy_modes(L.LSTM(3, 2))
