"""Stacked (bi-directional) LSTM functions over variable-length sequences."""
from minichainer.functions.rnn.n_step_rnn import _check_kwargs
from minichainer.functions.rnn.n_step_rnn import _stack_weight
from minichainer.functions.rnn.n_step_rnn import n_step_rnn_impl
from minichainer.functions.activation.lstm import lstm
from minichainer.functions.connection.linear import linear


def _lstm_cell(x, h, c, w, b):
    """One LSTM step: `w[0:4]`/`b[0:4]` act on x, `w[4:8]`/`b[4:8]` on h (input,
    forget, cell, output gates), stacked into the layout of `lstm`."""
    xw, xb, step = _lstm_split_input(w, b)
    return step(linear(x, xw, xb), h, c)


def _lstm_split_input(w, b):
    xw = _stack_weight([w[2], w[0], w[1], w[3]])
    xb = _stack_weight([b[2], b[0], b[1], b[3]])
    hw = _stack_weight([w[6], w[4], w[5], w[7]])
    hb = _stack_weight([b[6], b[4], b[5], b[7]])

    def step(x_proj, h, c):
        c_bar, h_bar = lstm(c, x_proj + linear(h, hw, hb))
        return h_bar, c_bar
    return xw, xb, step


_lstm_cell.split_input = _lstm_split_input


_lstm = _lstm_cell  # Chainer's name (ChainerRL imports it)


def n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs, use_bi_direction,
                     **kwargs):
    """Base of [`n_step_lstm`][minichainer.functions.rnn.n_step_lstm.n_step_lstm] and
    [`n_step_bilstm`][minichainer.functions.rnn.n_step_lstm.n_step_bilstm]."""
    _check_kwargs(kwargs)
    return n_step_rnn_impl(_lstm_cell, n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                           use_bi_direction)


def n_step_lstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked uni-directional LSTM over time-major sequences.

    `ws[l]` holds 8 matrices: `[0:4]` act on the input and `[4:8]` on the hidden
    state, for the input, forget, cell and output gates in that order; `bs[l]`
    likewise holds 8 biases.

    Returns:
        tuple: `(hy, cy, ys)`.
    """
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                            use_bi_direction=False, **kwargs)


def n_step_bilstm(n_layers, dropout_ratio, hx, cx, ws, bs, xs, **kwargs):
    """Stacked bi-directional LSTM (see
    [`n_step_lstm`][minichainer.functions.rnn.n_step_lstm.n_step_lstm])."""
    return n_step_lstm_base(n_layers, dropout_ratio, hx, cx, ws, bs, xs,
                            use_bi_direction=True, **kwargs)
