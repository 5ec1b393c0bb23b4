"""The LSTM layer with zoneout: `StatefulZoneoutLSTM`."""
from minichainer import link
from minichainer.links.connection import linear
from minichainer.links.rnn.state import RecurrentState
from minichainer import variable

from minichainer.functions.array import reshape as _reshape
from minichainer.functions.activation import sigmoid as _sigmoid
from minichainer.functions.array import split_axis as _split_axis
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
        for name, value in (('c', c), ('h', h)):
            if not isinstance(value, variable.Variable):
                raise TypeError('StatefulZoneoutLSTM.set_state: {} must be a Variable, '
                                'got {}'.format(name, type(value).__name__))
        self.c = c
        self.h = h

    def forward(self, x):
        """Update the state with `x` and return the new output."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        else:
            self.h = variable.Variable(
                self.xp.zeros((len(x), self.state_size), dtype=x.dtype))
        if self.c is None:
            self.c = variable.Variable(
                self.xp.zeros((len(x), self.state_size), dtype=x.dtype))
        n = self.state_size
        lstm_in = _reshape.reshape(lstm_in, (len(lstm_in), lstm_in.shape[1] // 4, 4))
        a, i, f, o = [_reshape.reshape(g, (len(g), n))
                      for g in _split_axis.split_axis(lstm_in, 4, 2)]
        c_tmp = _tanh.tanh(a) * _sigmoid.sigmoid(i) + _sigmoid.sigmoid(f) * self.c
        self.c = _zoneout.zoneout(self.c, c_tmp, self.c_ratio)
        self.h = _zoneout.zoneout(self.h, _sigmoid.sigmoid(o) * _tanh.tanh(c_tmp),
                                  self.h_ratio)
        return self.h
