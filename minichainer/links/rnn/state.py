"""`RecurrentState`: the hidden-state bookkeeping shared by the stateful RNN links."""


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
