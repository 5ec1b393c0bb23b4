"""Stacked LSTMs over lists of sequences: `NStepLSTM` and `NStepBiLSTM`."""
from minichainer.functions.rnn import n_step_lstm as _n_step_lstm
from minichainer.links.rnn import n_step_rnn


class NStepLSTMBase(n_step_rnn.NStepRNNBase):
    """Base of the stacked LSTM links (8 weights per layer and direction)."""

    n_weights = 8

    def rnn(self, n_layers, dropout, hx, cx, ws, bs, xs):
        """[`n_step_lstm_base`][minichainer.functions.rnn.n_step_lstm.n_step_lstm_base] over
        the time-major inputs; returns `(hy, cy, ys)`."""
        return _n_step_lstm.n_step_lstm_base(n_layers, dropout, hx, cx, ws, bs, xs,
                                             self.use_bi_direction)

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
