"""Gated recurrent units: `StatelessGRU`, `StatefulGRU` and `GRU` (stateful)."""
from minichainer import link
from minichainer.links.connection import linear
from minichainer.links.rnn.state import RecurrentState

from minichainer.functions.activation import sigmoid as _sigmoid
from minichainer.functions.activation import tanh as _tanh
from minichainer.functions.math.linear_interpolate import linear_interpolate


class GRUBase(link.Chain):
    """The six Linear children `W_r, U_r, W_z, U_z, W, U` (created in that order)."""

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=None):
        super().__init__()
        with self.init_scope():
            self.W_r = linear.Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_r = linear.Linear(out_size, out_size, initialW=inner_init,
                                     initial_bias=bias_init)
            self.W_z = linear.Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U_z = linear.Linear(out_size, out_size, initialW=inner_init,
                                     initial_bias=bias_init)
            self.W = linear.Linear(in_size, out_size, initialW=init, initial_bias=bias_init)
            self.U = linear.Linear(out_size, out_size, initialW=inner_init,
                                   initial_bias=bias_init)


class StatelessGRU(GRUBase):
    """GRU without state: `h_new = link(h, x)`.

    `r = sigmoid(W_r x + U_r h)`, `z = sigmoid(W_z x + U_z h)`,
    `h_bar = tanh(W x + U (r * h))`, `h_new = z * h_bar + (1 - z) * h`.
    """

    def forward(self, h, x):
        """Return the next hidden state."""
        r = _sigmoid.sigmoid(self.W_r(x) + self.U_r(h))
        z = _sigmoid.sigmoid(self.W_z(x) + self.U_z(h))
        h_bar = _tanh.tanh(self.W(x) + self.U(r * h))
        return linear_interpolate(z, h_bar, h)


class StatefulGRU(RecurrentState, GRUBase):
    """GRU that keeps its hidden state `h`: `h = link(x)`.

    Args:
        in_size (int): Input dimension.
        out_size (int): Hidden dimension.
        init, inner_init: Initializers of the input and recurrent weights.
        bias_init: Bias initializer (default 0).
    """

    state_names = ('h',)

    def __init__(self, in_size, out_size, init=None, inner_init=None, bias_init=0):
        super().__init__(in_size, out_size, init, inner_init, bias_init)
        self.state_size = out_size
        self.reset_state()

    def set_state(self, h):
        """Set the hidden state (a Variable).

        Raises:
            TypeError: `h` is not a Variable.
        """
        self.assign_state('StatefulGRU.set_state', True, (('h', h),))

    def forward(self, x):
        """Update the hidden state with `x` and return it."""
        z = self.W_z(x)
        h_bar = self.W(x)
        if self.h is not None:
            r = _sigmoid.sigmoid(self.W_r(x) + self.U_r(self.h))
            z += self.U_z(self.h)
            h_bar += self.U(r * self.h)
        z = _sigmoid.sigmoid(z)
        h_bar = _tanh.tanh(h_bar)
        if self.h is not None:
            h_new = linear_interpolate(z, h_bar, self.h)
        else:
            h_new = z * h_bar
        self.h = h_new
        return self.h


class GRU(StatefulGRU):
    """Stateful GRU (alias of [`StatefulGRU`][minichainer.links.rnn.gru.StatefulGRU]); takes a
    single input `x`.

    Raises:
        ValueError: called with two arguments (the pre-v2 stateless signature).
    """

    def forward(self, *args):
        """forward(self, x)"""
        n_args = len(args)
        if n_args != 1:
            msg = 'GRU.forward takes exactly 1 argument (x), got {}.'.format(n_args)
            if n_args == 2:
                msg += (' links.GRU is stateful since Chainer v2; use '
                        'links.StatelessGRU for the (h, x) signature.')
            raise ValueError(msg)
        return super().forward(args[0])
