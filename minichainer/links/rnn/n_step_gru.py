"""Stacked GRUs over lists of sequences: `NStepGRU` and `NStepBiGRU`."""
from minichainer.links.rnn import n_step_rnn

from minichainer.functions.array import concat as _concat
from minichainer.functions.connection import linear as _linear
from minichainer.functions.activation import sigmoid as _sigmoid
from minichainer.functions.array import split_axis as _split_axis
from minichainer.functions.activation import tanh as _tanh


def _gru_cell(x, h, c, w, b):
    # w0..w2: reset, update, candidate weights on x; w3..w5 the same on h.
    xw = _concat.concat([w[0], w[1], w[2]], axis=0)
    hw = _concat.concat([w[3], w[4], w[5]], axis=0)
    xb = _concat.concat([b[0], b[1], b[2]], axis=0)
    hb = _concat.concat([b[3], b[4], b[5]], axis=0)
    xr, xz, xh = _split_axis.split_axis(_linear.linear(x, xw, xb), 3, axis=1)
    hr, hz, hh = _split_axis.split_axis(_linear.linear(h, hw, hb), 3, axis=1)
    r = _sigmoid.sigmoid(xr + hr)
    z = _sigmoid.sigmoid(xz + hz)
    h_bar = _tanh.tanh(xh + r * hh)
    return (1 - z) * h_bar + z * h, None


class NStepGRUBase(n_step_rnn.NStepRNNBase):
    """Base of the stacked GRU links (6 weights per layer and direction)."""

    n_weights = 6
    _cell = staticmethod(_gru_cell)


class NStepGRU(NStepGRUBase):
    """Stacked uni-directional GRU for lists of variable-length sequences."""

    use_bi_direction = False


class NStepBiGRU(NStepGRUBase):
    """Stacked bi-directional GRU; outputs are `[forward; backward]`."""

    use_bi_direction = True
