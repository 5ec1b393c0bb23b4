"""The LSTM layer with peephole connections: `StatefulPeepholeLSTM`."""
from minichainer import link
from minichainer.links.connection import linear
from minichainer.links.rnn.state import RecurrentState, split_lstm_gates

from minichainer.functions.activation import sigmoid as _sigmoid
from minichainer.functions.activation import tanh as _tanh


class StatefulPeepholeLSTM(RecurrentState, link.Chain):
    """Stateful LSTM whose gates also see the cell state through `peep_i`, `peep_f`
    and `peep_o` (Linear layers without bias); children are created in the order
    upward, lateral, peep_i, peep_f, peep_o.

    Args:
        in_size (int): Input dimension.
        out_size (int): Hidden dimension.
    """

    state_names = ('c', 'h')

    def __init__(self, in_size, out_size):
        super().__init__()
        self.state_size = out_size
        self.reset_state()
        with self.init_scope():
            self.upward = linear.Linear(in_size, 4 * out_size)
            self.lateral = linear.Linear(out_size, 4 * out_size, nobias=True)
            self.peep_i = linear.Linear(out_size, out_size, nobias=True)
            self.peep_f = linear.Linear(out_size, out_size, nobias=True)
            self.peep_o = linear.Linear(out_size, out_size, nobias=True)

    def forward(self, x):
        """Update the state with `x` and return the new output `h`."""
        lstm_in = self.upward(x)
        if self.h is not None:
            lstm_in += self.lateral(self.h)
        if self.c is None:
            self.c = self.zero_state(x)
        a, i, f, o = split_lstm_gates(lstm_in, self.state_size)
        peep_in_i = self.peep_i(self.c)
        peep_in_f = self.peep_f(self.c)
        a = _tanh.tanh(a)
        i = _sigmoid.sigmoid(i + peep_in_i)
        f = _sigmoid.sigmoid(f + peep_in_f)
        self.c = a * i + f * self.c
        o = _sigmoid.sigmoid(o + self.peep_o(self.c))
        self.h = o * _tanh.tanh(self.c)
        return self.h
