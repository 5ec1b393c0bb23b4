import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check


def _sig(v):
    return 1 / (1 + numpy.exp(-v))


def _lstm_step(x, h, c, w, b):
    def lin(k):
        return x.dot(w[k].T) + b[k] + h.dot(w[k + 4].T) + b[k + 4]
    i, f, a, o = _sig(lin(0)), _sig(lin(1)), numpy.tanh(lin(2)), _sig(lin(3))
    c = f * c + i * a
    return o * numpy.tanh(c), c


def _gru_step(x, h, c, w, b):
    r = _sig(x.dot(w[0].T) + b[0] + h.dot(w[3].T) + b[3])
    z = _sig(x.dot(w[1].T) + b[1] + h.dot(w[4].T) + b[4])
    hb = numpy.tanh(x.dot(w[2].T) + b[2] + r * (h.dot(w[5].T) + b[5]))
    return (1 - z) * hb + z * h, None


def _rnn_step(x, h, c, w, b):
    return numpy.tanh(x.dot(w[0].T) + b[0] + h.dot(w[1].T) + b[1]), None


def _ref(step, n_layers, hx, cx, ws, bs, xs, bi):
    d = 2 if bi else 1
    hy, cy = [], []
    for layer in range(n_layers):
        outs = []
        for di in range(d):
            idx = layer * d + di
            h = hx[idx].copy()
            c = None if cx is None else cx[idx].copy()
            seq = list(range(len(xs)))
            if di == 1:
                seq.reverse()
            out = [None] * len(xs)
            for t in seq:
                bt = len(xs[t])
                hn, cn = step(xs[t], h[:bt], None if c is None else c[:bt], ws[idx], bs[idx])
                h = numpy.concatenate([hn, h[bt:]])
                if c is not None:
                    c = numpy.concatenate([cn, c[bt:]])
                out[t] = hn
            outs.append(out)
            hy.append(h)
            cy.append(c)
        xs = outs[0] if d == 1 else [numpy.concatenate([a, b], 1) for a, b in zip(*outs)]
    return numpy.stack(hy), (numpy.stack(cy) if cx is not None else None), xs


@pytest.mark.parametrize('kind', ['lstm', 'gru', 'rnn'])
@pytest.mark.parametrize('bi', [False, True])
def test_n_step(kind, bi):
    rng = numpy.random.RandomState(0)
    n_layers, in_size, units = 2, 3, 2
    d = 2 if bi else 1
    n_w = {'lstm': 8, 'gru': 6, 'rnn': 2}[kind]
    batches = [3, 2, 1]
    xs = [rng.randn(b, in_size) for b in batches]
    hx = rng.randn(n_layers * d, 3, units)
    cx = rng.randn(n_layers * d, 3, units) if kind == 'lstm' else None
    ws, bs = [], []
    for layer in range(n_layers):
        for di in range(d):
            isz = in_size if layer == 0 else units * d
            ws.append([rng.randn(units, isz if j < n_w // 2 else units) * 0.5
                       for j in range(n_w)])
            bs.append([rng.randn(units) * 0.5 for _ in range(n_w)])
    step = {'lstm': _lstm_step, 'gru': _gru_step, 'rnn': _rnn_step}[kind]
    ref_hy, ref_cy, ref_ys = _ref(step, n_layers, hx, cx, ws, bs, xs, bi)
    name = {'lstm': 'n_step_{}lstm', 'gru': 'n_step_{}gru', 'rnn': 'n_step_{}rnn'}[kind]
    func = getattr(F, name.format('bi' if bi else ''))
    if kind == 'lstm':
        hy, cy, ys = func(n_layers, 0.0, hx, cx, ws, bs, xs)
        numpy.testing.assert_allclose(cy.array, ref_cy, rtol=1e-10)
    else:
        hy, ys = func(n_layers, 0.0, hx, ws, bs, xs)
    numpy.testing.assert_allclose(hy.array, ref_hy, rtol=1e-10)
    assert len(ys) == len(xs)
    for y, r in zip(ys, ref_ys):
        numpy.testing.assert_allclose(y.array, r, rtol=1e-10)
    # gradients w.r.t. the inputs and the first layer's weights
    flat = [hx] + xs + ws[0]

    def f(hx_, *rest):
        xs_ = list(rest[:len(xs)])
        w0 = list(rest[len(xs):])
        ws_ = [w0] + ws[1:]
        if kind == 'lstm':
            hy, cy, ys = func(n_layers, 0.0, hx_, cx, ws_, bs, xs_)
        else:
            hy, ys = func(n_layers, 0.0, hx_, ws_, bs, xs_)
        return (hy,) + tuple(ys)

    gys = [rng.randn(*hy.shape)] + [rng.randn(*y.shape) for y in ys]
    gradient_check.check_backward(f, flat, gys, atol=1e-6, rtol=1e-5)


def test_n_step_errors():
    with pytest.raises(ValueError):
        F.n_step_rnn(1, 0.0, numpy.zeros((1, 1, 2)), [[numpy.zeros((2, 2))] * 2],
                     [[numpy.zeros(2)] * 2], [numpy.zeros((1, 2))], activation='sigmoid')
    with pytest.raises(ValueError):
        F.n_step_gru(1, 0.0, numpy.zeros((1, 1, 2)), [[numpy.zeros((2, 2))] * 6],
                     [[numpy.zeros(2)] * 6], [numpy.zeros((1, 2))], train=True)


def test_n_step_lstm_dropout_in_test_mode_is_identity():
    rng = numpy.random.RandomState(1)
    hx = numpy.zeros((2, 2, 3))
    ws = [[rng.randn(3, 3) for _ in range(8)] for _ in range(2)]
    bs = [[rng.randn(3) for _ in range(8)] for _ in range(2)]
    xs = [rng.randn(2, 3)]
    with minichainer.using_config('train', False):
        a = F.n_step_lstm(2, 0.9, hx, hx, ws, bs, xs)[0].array
    b = F.n_step_lstm(2, 0.0, hx, hx, ws, bs, xs)[0].array
    numpy.testing.assert_allclose(a, b)


@pytest.mark.parametrize('kind', ['lstm', 'gru', 'rnn'])
def test_n_step_rnn_impl_projection_path_equals_the_per_step_cell(kind):
    # the package's cells project every step's input at once (`split_input`); any other
    # cell `f(x, h, c, w, b)` runs step by step; both give the same values and gradients
    from minichainer.functions.rnn import n_step_gru, n_step_lstm, n_step_rnn
    cell = {'lstm': n_step_lstm._lstm_cell, 'gru': n_step_gru._gru_cell,
            'rnn': n_step_rnn._rnn_cell('tanh')}[kind]
    assert hasattr(cell, 'split_input')

    def plain(x, h, c, w, b):      # the same cell, without its split_input
        return cell(x, h, c, w, b)

    rng = numpy.random.RandomState(3)
    n_w = {'lstm': 8, 'gru': 6, 'rnn': 2}[kind]
    xs = [rng.randn(b, 4) for b in (3, 3, 2, 1)]
    hx = rng.randn(2, 3, 5)
    cx = rng.randn(2, 3, 5) if kind == 'lstm' else None
    ws = [[rng.randn(5, 4 if (layer == 0 and j < n_w // 2) else 5) for j in range(n_w)]
          for layer in range(2)]
    bs = [[rng.randn(5) for _ in range(n_w)] for _ in range(2)]
    results = []
    for f in (cell, plain):
        wv = [[minichainer.Variable(w) for w in layer] for layer in ws]
        xv = [minichainer.Variable(x) for x in xs]
        hy, cy, ys = n_step_rnn.n_step_rnn_impl(f, 2, 0.0, hx, cx, wv, bs, xv, False)
        loss = sum(F.sum(y * y) for y in ys) + F.sum(hy)
        loss.backward()
        results.append([hy.array] + [y.array for y in ys] + [x.grad for x in xv]
                       + [w.grad for layer in wv for w in layer])
    for a, b in zip(*results):
        numpy.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)
