"""The LSTM layer with zoneout: `StatefulZoneoutLSTM`."""
from minichainer import link
from minichainer.links.connection import linear
from minichainer.links.rnn.state import RecurrentState, split_lstm_gates

from minichainer.functions.activation import sigmoid as _sigmoid
from minichainer.functions.activation import tanh as _tanh
from minichainer.functions.noise import zoneout as _zoneout


class StatefulZoneoutLSTM(RecurrentState, link.Chain):
    """Stateful LSTM where each unit keeps its previous cell state / output with
    probability `c_ratio` / `h_ratio` in training (zoneout).

    Args:
        in_size (int): Input dimension.
        out_size (int): Hidden dimension.
        c_ratio (float): Zoneout ratio of the cell state.
        h_ratio (float): Zoneout ratio of the output.

    Raises:
        ValueError: the removed `train` argument is given.
    """

    state_names = ('c', 'h')

    def __init__(self, in_size, out_size, c_ratio=0.5, h_ratio=0.5, **kwargs):
        if 'train' in kwargs:
            raise ValueError("StatefulZoneoutLSTM: the train argument is not supported "
                             "anymore; use minichainer.using_config('train', ...)")
        if kwargs:
            raise TypeError('StatefulZoneoutLSTM() got unexpected keyword argument(s): '
                            '{}'.format(', '.join(sorted(kwargs))))
        super().__init__()
        self.state_size = out_size
        self.c_ratio = c_ratio
        self.h_ratio = h_ratio
        self.reset_state()
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)

    def set_state(self, c, h):
        """Set the cell state and output (Variables).

        Raises:
            TypeError: `c` or `h` is not a Variable.
        """
        self.assign_state('StatefulZoneoutLSTM.set_state', False, (('c', c), ('h', h)))

    def forward(self, x):
        """Update the state with `x` and return the new output."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        else:
            self.h = self.zero_state(x)
        if self.c is None:
            self.c = self.zero_state(x)
        a, i, f, o = split_lstm_gates(lstm_in, self.state_size)
        c_tmp = _tanh.tanh(a) * _sigmoid.sigmoid(i) + _sigmoid.sigmoid(f) * self.c
        self.c = _zoneout.zoneout(self.c, c_tmp, self.c_ratio)
        self.h = _zoneout.zoneout(self.h, _sigmoid.sigmoid(o) * _tanh.tanh(c_tmp),
                                  self.h_ratio)
        return self.h
