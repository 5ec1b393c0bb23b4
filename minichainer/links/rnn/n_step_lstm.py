"""Stacked LSTMs over lists of sequences: `NStepLSTM` and `NStepBiLSTM`."""
from minichainer.links.rnn import n_step_rnn

from minichainer.functions.activation import lstm as _lstm
from minichainer.functions.connection import linear as _linear
from minichainer.functions.array import reshape as _reshape
from minichainer.functions.array import stack as _stack


def _stack_weight(ws):
    # Interleave the 4 gate blocks per unit, the layout F.lstm expects.
    w = _stack.stack(ws, axis=1)
    shape = w.shape
    return _reshape.reshape(w, (shape[0] * shape[1],) + shape[2:])


def _lstm_cell(x, h, c, w, b):
    # w0..w3: input, forget, cell, output weights on x; w4..w7 the same on h.
    xw = _stack_weight([w[2], w[0], w[1], w[3]])
    hw = _stack_weight([w[6], w[4], w[5], w[7]])
    xb = _stack_weight([b[2], b[0], b[1], b[3]])
    hb = _stack_weight([b[6], b[4], b[5], b[7]])
    lstm_in = _linear.linear(x, xw, xb) + _linear.linear(h, hw, hb)
    c_new, h_new = _lstm.lstm(c, lstm_in)
    return h_new, c_new


class NStepLSTMBase(n_step_rnn.NStepRNNBase):
    """Base of the stacked LSTM links (8 weights per layer and direction)."""

    n_weights = 8
    _cell = staticmethod(_lstm_cell)

    @property
    def n_cells(self):
        return 2

    def forward(self, hx, cx, xs, **kwargs):
        """forward(self, hx, cx, xs)

        Args:
            hx, cx: Initial hidden and cell states `(n_layers * direction, B, out_size)`
                or None (zeros).
            xs (list): The B input sequences, each `(L_i, in_size)`.

        Returns:
            tuple: `(hy, cy, ys)`.
        """
        (hy, cy), ys = self._call([hx, cx], xs, **kwargs)
        return hy, cy, ys


class NStepLSTM(NStepLSTMBase):
    """Stacked uni-directional LSTM for lists of variable-length sequences."""

    use_bi_direction = False


class NStepBiLSTM(NStepLSTMBase):
    """Stacked bi-directional LSTM; outputs are `[forward; backward]` (2 * out_size)."""

    use_bi_direction = True
