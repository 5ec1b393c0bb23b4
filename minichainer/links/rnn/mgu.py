"""Minimal gated units: `StatelessMGU` and `StatefulMGU`."""
from minichainer import link
from minichainer.links.connection import linear
from minichainer.links.rnn.state import RecurrentState

from minichainer.functions.array import concat as _concat
from minichainer.functions.math import linear_interpolate as _linear_interpolate
from minichainer.functions.activation import sigmoid as _sigmoid
from minichainer.functions.activation import tanh as _tanh


class MGUBase(link.Chain):
    """The two Linear children `W_f` and `W_h` of shape (n_units, n_inputs + n_units)."""

    def __init__(self, n_inputs, n_units):
        super().__init__()
        with self.init_scope():
            self.W_f = linear.Linear(n_inputs + n_units, n_units)
            self.W_h = linear.Linear(n_inputs + n_units, n_units)

    def _call_mgu(self, h, x):
        f = _sigmoid.sigmoid(self.W_f(_concat.concat([h, x])))
        h_bar = _tanh.tanh(self.W_h(_concat.concat([f * h, x])))
        return _linear_interpolate.linear_interpolate(f, h_bar, h)


class StatelessMGU(MGUBase):
    """MGU without state: `h_new = link(h, x)` with `f = sigmoid(W_f [h; x])`,
    `h_bar = tanh(W_h [f * h; x])` and `h_new = f * h_bar + (1 - f) * h`."""

    forward = MGUBase._call_mgu


class StatefulMGU(RecurrentState, MGUBase):
    """MGU keeping its hidden state `h`: `h = link(x)`."""

    state_names = ('h',)

    def __init__(self, in_size, out_size):
        super().__init__(in_size, out_size)
        self.state_size = out_size
        self.reset_state()

    def set_state(self, h):
        """Set the hidden state (a Variable).

        Raises:
            TypeError: `h` is not a Variable.
        """
        self.assign_state('StatefulMGU.set_state', False, (('h', h),))

    def forward(self, x):
        """Update the hidden state with `x` and return it."""
        h = self.h
        if h is None:
            h = self.zero_state(x)
        self.h = self._call_mgu(h, x)
        return self.h
