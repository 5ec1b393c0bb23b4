import numpy as np
import pytest

import minichainer
import minichainer.links as L

from .. import _util


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _lin(x, w, b):
    return x @ w.array.T + b.array


def lstm_seq(layer, x, h, c):
    w = [getattr(layer, 'w%d' % i) for i in range(8)]
    b = [getattr(layer, 'b%d' % i) for i in range(8)]
    ys = []
    for xt in x:
        i = _sigmoid(_lin(xt, w[0], b[0]) + _lin(h, w[4], b[4]))
        f = _sigmoid(_lin(xt, w[1], b[1]) + _lin(h, w[5], b[5]))
        a = np.tanh(_lin(xt, w[2], b[2]) + _lin(h, w[6], b[6]))
        o = _sigmoid(_lin(xt, w[3], b[3]) + _lin(h, w[7], b[7]))
        c = a * i + f * c
        h = o * np.tanh(c)
        ys.append(h)
    return np.array(ys), h, c


def gru_seq(layer, x, h):
    w = [getattr(layer, 'w%d' % i) for i in range(6)]
    b = [getattr(layer, 'b%d' % i) for i in range(6)]
    ys = []
    for xt in x:
        r = _sigmoid(_lin(xt, w[0], b[0]) + _lin(h, w[3], b[3]))
        z = _sigmoid(_lin(xt, w[1], b[1]) + _lin(h, w[4], b[4]))
        h_bar = np.tanh(_lin(xt, w[2], b[2]) + r * _lin(h, w[5], b[5]))
        h = (1 - z) * h_bar + z * h
        ys.append(h)
    return np.array(ys), h


def _make_xs(lengths, size):
    return [np.random.randn(n, size).astype(np.float32) for n in lengths]


def test_nstep_lstm_two_layers_matches_reference():
    link = L.NStepLSTM(2, 3, 4, dropout=0.5)
    xs = _make_xs((2, 4, 3), 3)
    hx = np.random.randn(2, 3, 4).astype(np.float32)
    cx = np.random.randn(2, 3, 4).astype(np.float32)
    with minichainer.using_config('train', False):  # no dropout between the layers
        hy, cy, ys = link(hx, cx, xs)
    for k, x in enumerate(xs):
        y0, h0, c0 = lstm_seq(link[0], x[:, None], hx[0, k:k + 1], cx[0, k:k + 1])
        y1, h1, c1 = lstm_seq(link[1], y0, hx[1, k:k + 1], cx[1, k:k + 1])
        np.testing.assert_allclose(ys[k].array, y1[:, 0], rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(hy.array[:, k], np.stack([h0[0], h1[0]]), rtol=1e-4,
                                   atol=1e-5)
        np.testing.assert_allclose(cy.array[:, k], np.stack([c0[0], c1[0]]), rtol=1e-4,
                                   atol=1e-5)


def test_nstep_bigru_matches_reference_in_test_mode():
    link = L.NStepBiGRU(1, 3, 2, dropout=0.3)
    xs = _make_xs((3, 1), 3)
    with minichainer.using_config('train', False):
        hy, ys = link(None, xs)
    assert hy.shape == (2, 2, 2) and ys[0].shape == (3, 4)
    for k, x in enumerate(xs):
        h0 = np.zeros((1, 2), np.float32)
        yf, hf = gru_seq(link[0], x[:, None], h0)
        yb, hb = gru_seq(link[1], x[::-1, None], h0)
        expected = np.concatenate([yf[:, 0], yb[::-1, 0]], axis=1)
        np.testing.assert_allclose(ys[k].array, expected, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(hy.array[1, k], hb[0], rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize('cls, act', [(L.NStepRNNTanh, np.tanh),
                                      (L.NStepRNNReLU, lambda v: np.maximum(v, 0))])
def test_nstep_rnn(cls, act):
    link = cls(1, 2, 3, 0.0)
    xs = _make_xs((2, 3), 2)
    hy, ys = link(None, xs)
    w0, b0, w1, b1 = link[0].w0, link[0].b0, link[0].w1, link[0].b1
    for k, x in enumerate(xs):
        h = np.zeros(3, np.float32)
        for t, xt in enumerate(x):
            h = act(_lin(xt, w0, b0) + _lin(h, w1, b1))
            np.testing.assert_allclose(ys[k].array[t], h, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(hy.array[0, k], h, rtol=1e-5, atol=1e-6)
    bi = L.NStepBiRNNReLU(2, 2, 3, 0.0)
    hy, ys = bi(None, xs)
    assert hy.shape == (4, 2, 3) and ys[1].shape == (3, 6)
    assert L.NStepBiRNNTanh(1, 2, 3, 0.0)(None, xs)[1][0].shape == (2, 6)


def test_parameters_layout_and_initialization_order():
    np.random.seed(0)
    link = L.NStepLSTM(2, 3, 4, 0.0)
    assert len(link) == 2 and link[1].w0.shape == (4, 4) and link[0].w0.shape == (4, 3)
    assert link[0].w4.shape == (4, 4)
    np.random.seed(0)
    for i in range(2):
        for j in range(8):
            w_in = 3 if (i == 0 and j < 4) else 4
            expected = np.random.normal(0, np.sqrt(1. / w_in), (4, w_in)).astype(np.float32)
            np.testing.assert_array_equal(getattr(link[i], 'w%d' % j).array, expected)
            assert (getattr(link[i], 'b%d' % j).array == 0).all()
    bi = L.NStepBiLSTM(2, 3, 4, 0.0)
    assert len(bi) == 4 and bi[2].w0.shape == (4, 8)
    assert link.ws[1][3] is link[1].w3


def test_dropout_is_applied_between_layers_in_training_only():
    link = L.NStepGRU(2, 3, 3, dropout=0.9)
    xs = _make_xs((4,), 3)
    with minichainer.using_config('train', False):
        _, ys_test = link(None, xs)
    np.random.seed(1)
    _, ys1 = link(None, xs)
    np.random.seed(1)
    _, ys2 = link(None, xs)
    np.testing.assert_array_equal(ys1[0].array, ys2[0].array)
    assert not np.allclose(ys1[0].array, ys_test[0].array)


def test_gradients_and_copy_keep_weight_lists():
    link = L.NStepLSTM(1, 2, 2, 0.0)
    link.cleargrads()
    hy, cy, ys = link(None, None, _make_xs((3, 2), 2))
    loss = minichainer.functions.sum(hy) + minichainer.functions.sum(ys[0])
    loss.backward()
    assert all(p.grad is not None for p in link.params())
    copied = link.copy('copy')
    assert copied.ws[0][0] is copied[0].w0 and copied.ws[0][0] is not link.ws[0][0]
    with pytest.raises(ValueError, match='use_cudnn'):
        L.NStepLSTM(1, 2, 2, 0.0, use_cudnn=True)
    with pytest.raises(ValueError, match='train'):
        link(None, None, _make_xs((1,), 2), train=True)
    with pytest.raises(TypeError, match='list'):
        link(None, None, np.zeros((2, 2), np.float32))


def test_serialization(tmp_path):
    _util.check_npz_round_trip(lambda: L.NStepBiLSTM(1, 2, 2, 0.0), tmp_path)


def test_initializers_are_keyword_only():
    with pytest.raises(TypeError):
        L.NStepLSTM(1, 2, 2, 0.0, None)
    link = L.NStepGRU(1, 2, 2, 0.0, initialW=1.0, initial_bias=2.0)
    assert (link[0].w0.array == 1).all() and (link[0].b5.array == 2).all()
