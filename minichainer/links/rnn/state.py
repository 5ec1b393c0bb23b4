"""`RecurrentState`: the hidden-state bookkeeping shared by the stateful RNN links,
and `split_lstm_gates`, the gate layout of Chainer's LSTM links."""
from minichainer import variable
from minichainer.functions.array import reshape as _reshape
from minichainer.functions.array import split_axis as _split_axis


def split_lstm_gates(lstm_in, n):
    """Split the `(batch, 4 * n)` pre-activations of an LSTM link into its gates
    `[a, i, f, o]`, each `(batch, n)` (Chainer's interleaved layout)."""
    lstm_in = _reshape.reshape(lstm_in, (len(lstm_in), lstm_in.shape[1] // 4, 4))
    return [_reshape.reshape(g, (len(g), n))
            for g in _split_axis.split_axis(lstm_in, 4, 2)]


class RecurrentState:
    """Mixin of the stateful recurrent links (put it before the link class).

    The Variables named in `state_names` (in that order) travel with the link on device
    transfers, and `reset_state` sets them to None.
    """

    state_names = ()

    def device_resident_accept(self, visitor):
        super().device_resident_accept(visitor)
        for name in self.state_names:
            state = getattr(self, name)
            if state is not None:
                visitor.visit_variable(state)

    def reset_state(self):
        """Forget the state (each state Variable becomes None)."""
        for name in self.state_names:
            setattr(self, name, None)

    def zero_state(self, x):
        """A Variable of zeros of shape `(len(x), state_size)` and `x`'s dtype."""
        return variable.Variable(self.xp.zeros((len(x), self.state_size), dtype=x.dtype))

    def assign_state(self, owner, to_device, states):
        """Set the state Variables `states` (`(name, value)` pairs, in order).

        Each value is checked first (TypeError naming `owner`, e.g.
        `'LSTM.set_state'`); with `to_device` they are moved to the link's device.
        """
        for name, value in states:
            if not isinstance(value, variable.Variable):
                raise TypeError('{}: {} must be a Variable, got {}'.format(
                    owner, name, type(value).__name__))
        if to_device:
            for _, value in states:
                value.to_device(self.device)
        for name, value in states:
            setattr(self, name, value)
