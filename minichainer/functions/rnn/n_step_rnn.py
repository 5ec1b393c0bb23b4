"""Stacked (bi-directional) RNN functions over variable-length sequences.

These are compositions of differentiable functions (Chainer's CPU path); no cuDNN.
"""
import numpy

from minichainer.utils import argument
from minichainer.functions.activation.relu import relu
from minichainer.functions.activation.tanh import tanh
from minichainer.functions.array.concat import concat
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.separate import separate
from minichainer.functions.array.split_axis import split_axis
from minichainer.functions.array.stack import stack
from minichainer.functions.connection.linear import linear
from minichainer.functions.noise.dropout import dropout


def _check_kwargs(kwargs):
    argument.check_unexpected_kwargs(
        kwargs, train='train argument is not supported anymore. Use chainer.using_config',
        use_cudnn='use_cudnn argument is not supported anymore. '
        'Use chainer.using_config')
    argument.assert_kwargs_empty(kwargs)


def _stack_weight(ws):
    """Interleave gate weights (the layout [`lstm`][minichainer.functions.activation.lstm.lstm]
    expects)."""
    w = stack(ws, axis=1)
    shape = w.shape
    return reshape(w, (shape[0] * shape[1],) + shape[2:])


def _dropout_sequence(xs, dropout_ratio):
    return [dropout(x, ratio=dropout_ratio) for x in xs]


def _one_directional_loop(f, xs, h, c, w, b):
    """Run cell `f` over the time steps `xs`. A cell with a `split_input` attribute (the
    cells of this package) has its input projection computed for every step at once:
    `split_input(w, b)` gives the input weight and bias and the recurrent step
    `step(projection, h, c) -> (h, c)`; one `linear` over all the steps' inputs then
    replaces one per step, and the weights are stacked once instead of every step."""
    split_input = getattr(f, 'split_input', None)
    if split_input is not None:
        xs = list(xs)
        xw, xb, step = split_input(w, b)
        sizes = [len(x) for x in xs]
        projection = linear(concat(xs, axis=0) if len(xs) > 1 else xs[0], xw, xb)
        if len(xs) > 1:
            ends = numpy.cumsum(sizes)[:-1].tolist()
            inputs = split_axis(projection, ends, axis=0)
        else:
            inputs = (projection,)
    else:
        inputs = xs

        def step(x, h, c):
            return f(x, h, c, w, b)
    h_list = []
    for x in inputs:
        batch = len(x)
        need_split = len(h) > batch
        if need_split:
            h, h_rest = split_axis(h, [batch], axis=0)
            if c is not None:
                c, c_rest = split_axis(c, [batch], axis=0)
        h, c = step(x, h, c)
        h_list.append(h)
        if need_split:
            h = concat([h, h_rest], axis=0)
            if c is not None:
                c = concat([c, c_rest], axis=0)
    return h, c, h_list


def n_step_rnn_impl(f, n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction):
    """Generic stacked RNN loop: `f(x, h, c, w, b) -> (h, c)` is one cell step.

    Returns:
        tuple: `(hy, cy, ys)`; `cy` is None when `cx` is None.
    """
    direction = 2 if use_bi_direction else 1
    hx = separate(hx)
    use_cell = cx is not None
    if use_cell:
        cx = separate(cx)
    else:
        cx = [None] * len(hx)
    xs_next = xs
    hy = []
    cy = []
    for layer in range(n_layers):
        xs = xs_next if layer == 0 else _dropout_sequence(xs_next, dropout_ratio)
        idx = direction * layer
        h, c, h_forward = _one_directional_loop(f, xs, hx[idx], cx[idx], ws[idx], bs[idx])
        hy.append(h)
        cy.append(c)
        if use_bi_direction:
            idx = direction * layer + 1
            xs = xs_next if layer == 0 else _dropout_sequence(xs_next, dropout_ratio)
            h, c, h_backward = _one_directional_loop(
                f, reversed(xs), hx[idx], cx[idx], ws[idx], bs[idx])
            h_backward.reverse()
            xs_next = [concat([hfi, hbi], axis=1) for hfi, hbi in zip(h_forward, h_backward)]
            hy.append(h)
            cy.append(c)
        else:
            xs_next = h_forward
    ys = xs_next
    hy = stack(hy)
    cy = stack(cy) if use_cell else None
    return hy, cy, tuple(ys)


def _rnn_cell(activation):
    """The step `f(x, h, c, w, b)` of a plain RNN (`w = [W0, W1]`, `b = [b0, b1]`)."""
    act = tanh if activation == 'tanh' else relu

    def f(x, h, c, w, b):
        xw, hw = w
        xb, hb = b
        return act(linear(x, xw, xb) + linear(h, hw, hb)), None

    def split_input(w, b):
        hw, hb = w[1], b[1]

        def step(x_proj, h, c):
            return act(x_proj + linear(h, hw, hb)), None
        return w[0], b[0], step

    f.split_input = split_input
    return f


def n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation, use_bi_direction,
                    **kwargs):
    """Base of [`n_step_rnn`][minichainer.functions.rnn.n_step_rnn.n_step_rnn] and
    [`n_step_birnn`][minichainer.functions.rnn.n_step_rnn.n_step_birnn].

    Raises:
        ValueError: for an unknown activation or removed keyword arguments.
    """
    _check_kwargs(kwargs)
    if activation not in ('tanh', 'relu'):
        raise ValueError('Invalid activation: "%s". Please select from [tanh,relu]'
                         % activation)
    hy, _, ys = n_step_rnn_impl(_rnn_cell(activation), n_layers, dropout_ratio, hx, None,
                                ws, bs, xs, use_bi_direction)
    return hy, ys


def n_step_rnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh', **kwargs):
    """Stacked uni-directional RNN: `h_t = f(W0 x_t + W1 h_{t-1} + b0 + b1)`.

    Args:
        n_layers (int): number of layers.
        dropout_ratio (float): dropout ratio applied to the inputs of layers > 0.
        hx (Variable): (n_layers, B, N) initial hidden states.
        ws, bs (list of lists): per layer `[W0, W1]` and `[b0, b1]`.
        xs (list of Variable): time-major inputs, `xs[t].shape[0]` non-increasing.
        activation (str): `'tanh'` or `'relu'`.

    Returns:
        tuple: `(hy, ys)`.
    """
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation,
                           use_bi_direction=False, **kwargs)


def n_step_birnn(n_layers, dropout_ratio, hx, ws, bs, xs, activation='tanh', **kwargs):
    """Stacked bi-directional RNN (see
    [`n_step_rnn`][minichainer.functions.rnn.n_step_rnn.n_step_rnn]); `hx` is (2 * n_layers, B,
    N)."""
    return n_step_rnn_base(n_layers, dropout_ratio, hx, ws, bs, xs, activation,
                           use_bi_direction=True, **kwargs)
