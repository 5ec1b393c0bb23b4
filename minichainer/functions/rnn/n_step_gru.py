"""Stacked (bi-directional) GRU functions over variable-length sequences."""
from minichainer.functions.rnn.n_step_rnn import _check_kwargs
from minichainer.functions.rnn.n_step_rnn import n_step_rnn_impl
from minichainer.functions.activation.sigmoid import sigmoid
from minichainer.functions.activation.tanh import tanh
from minichainer.functions.array.concat import concat
from minichainer.functions.array.split_axis import split_axis
from minichainer.functions.connection.linear import linear


def _gru_cell(x, h, c, w, b):
    """One GRU step: `w[0:3]`/`b[0:3]` act on x, `w[3:6]`/`b[3:6]` on h (reset,
    update, new)."""
    xw, xb, step = _gru_split_input(w, b)
    return step(linear(x, xw, xb), h, c)


def _gru_split_input(w, b):
    xw = concat([w[0], w[1], w[2]], axis=0)
    xb = concat([b[0], b[1], b[2]], axis=0)
    hw = concat([w[3], w[4], w[5]], axis=0)
    hb = concat([b[3], b[4], b[5]], axis=0)

    def step(gru_x, h, c):
        gru_h = linear(h, hw, hb)
        W_r_x, W_z_x, W_x = split_axis(gru_x, 3, axis=1)
        U_r_h, U_z_h, U_x = split_axis(gru_h, 3, axis=1)
        r = sigmoid(W_r_x + U_r_h)
        z = sigmoid(W_z_x + U_z_h)
        h_bar = tanh(W_x + r * U_x)
        return (1 - z) * h_bar + z * h, None
    return xw, xb, step


_gru_cell.split_input = _gru_split_input


_gru = _gru_cell  # Chainer's name (ChainerRL imports it)


def n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs, use_bi_direction, **kwargs):
    """Base of [`n_step_gru`][minichainer.functions.rnn.n_step_gru.n_step_gru] and
    [`n_step_bigru`][minichainer.functions.rnn.n_step_gru.n_step_bigru]."""
    _check_kwargs(kwargs)
    hy, _, ys = n_step_rnn_impl(_gru_cell, n_layers, dropout_ratio, hx, None, ws, bs, xs,
                                use_bi_direction)
    return hy, ys


def n_step_gru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked uni-directional GRU over time-major sequences.

    `ws[l]` holds 6 matrices: `[0:3]` act on the input (reset, update, new) and
    `[3:6]` on the hidden state; `bs[l]` likewise holds 6 biases.

    Returns:
        tuple: `(hy, ys)`.
    """
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           use_bi_direction=False, **kwargs)


def n_step_bigru(n_layers, dropout_ratio, hx, ws, bs, xs, **kwargs):
    """Stacked bi-directional GRU (see
    [`n_step_gru`][minichainer.functions.rnn.n_step_gru.n_step_gru])."""
    return n_step_gru_base(n_layers, dropout_ratio, hx, ws, bs, xs,
                           use_bi_direction=True, **kwargs)
