"""PolynomialShift: decay an optimizer attribute polynomially to zero."""
from minichainer.training.extensions import _shift_base


class PolynomialShift(_shift_base._ShiftBase):
    """Sets ``optimizer.<attr> = base * (1 - t / max_count) ** rate`` (0 after
    ``max_count`` calls).

    Args:
        attr (str): Attribute to shift.
        rate (float): Exponent of the polynomial.
        max_count (int): Number of calls until the value reaches zero.
        target (float): Base value; the attribute's value at start if None.
        optimizer: Optimizer to change; the ``'main'`` one by default.
    """

    def __init__(self, attr, rate, max_count, target=None, optimizer=None):
        super().__init__(attr, optimizer)
        self._rate = rate
        self._max_count = max_count
        self._target = target

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._target is None:
            self._target = getattr(optimizer, self._attr)
        if self._last_value is not None:
            value = self._last_value
        else:
            value = self._compute_next_value()
        self._update_value(optimizer, value)

    def __call__(self, trainer):
        self._t += 1
        self._update_value(self._get_optimizer(trainer), self._compute_next_value())

    def _compute_next_value(self):
        decay = max(1 - self._t / self._max_count, 0)
        return self._target * decay ** self._rate
