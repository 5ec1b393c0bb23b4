"""LinearShift: move an optimizer attribute linearly between two values."""
from minichainer.training.extensions import _shift_base


class LinearShift(_shift_base.ShiftBase):
    """Sets `optimizer.<attr>` to `v1` until call `t1`, then linearly to `v2`
    at call `t2`, then `v2`.

    Args:
        attr (str): Attribute to shift.
        value_range (tuple): `(v1, v2)`.
        time_range (tuple): `(t1, t2)` in calls of the extension.
        optimizer: Optimizer to change; the `'main'` one by default.
    """

    def __init__(self, attr, value_range, time_range, optimizer=None):
        super().__init__(attr, optimizer)
        self._value_range = value_range
        self._time_range = time_range

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._last_value is not None:
            value = self._last_value
        else:
            value = self._compute_next_value()
        self._update_value(optimizer, value)

    def __call__(self, trainer):
        self._t += 1
        self._update_value(self._get_optimizer(trainer), self._compute_next_value())

    def _compute_next_value(self):
        t1, t2 = self._time_range
        v1, v2 = self._value_range
        if self._t <= t1:
            return v1
        if self._t >= t2:
            return v2
        rate = (self._t - t1) / (t2 - t1)
        return v1 + rate * (v2 - v1)
