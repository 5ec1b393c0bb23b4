"""Stacked GRUs over lists of sequences: `NStepGRU` and `NStepBiGRU`."""
from minichainer.functions.rnn import n_step_gru as _n_step_gru
from minichainer.links.rnn import n_step_rnn


class NStepGRUBase(n_step_rnn.NStepRNNBase):
    """Base of the stacked GRU links (6 weights per layer and direction)."""

    n_weights = 6

    def rnn(self, n_layers, dropout, hx, ws, bs, xs):
        """[`n_step_gru_base`][minichainer.functions.rnn.n_step_gru.n_step_gru_base] over
        the time-major inputs; returns `(hy, ys)`."""
        return _n_step_gru.n_step_gru_base(n_layers, dropout, hx, ws, bs, xs,
                                           self.use_bi_direction)


class NStepGRU(NStepGRUBase):
    """Stacked uni-directional GRU for lists of variable-length sequences."""

    use_bi_direction = False


class NStepBiGRU(NStepGRUBase):
    """Stacked bi-directional GRU; outputs are `[forward; backward]`."""

    use_bi_direction = True
