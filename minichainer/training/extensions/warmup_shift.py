"""WarmupShift: raise an optimizer attribute linearly from a start value to its value."""
from minichainer.training.extensions import _shift_base


class WarmupShift(_shift_base._ShiftBase):
    """Sets ``optimizer.<attr>`` linearly from ``warmup_start`` to ``init`` over
    ``warmup_iter`` calls, then keeps ``init``.

    Args:
        attr (str): Attribute to shift.
        warmup_start (float): Value at the start.
        warmup_iter (int): Number of calls of the warm-up.
        init (float): Value after the warm-up; the attribute's value at start if None.
        optimizer: Optimizer to change; the ``'main'`` one by default.
    """

    def __init__(self, attr, warmup_start, warmup_iter, init=None, optimizer=None):
        super().__init__(attr, optimizer)
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter
        self._init = init

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        if self._last_value is not None:
            value = self._last_value
        else:
            value = self._warmup_start
        self._update_value(optimizer, value)

    def __call__(self, trainer):
        self._t += 1
        if self._t < self._warmup_iter:
            value = self._warmup_start + (self._init - self._warmup_start) * (
                self._t / self._warmup_iter)
        else:
            value = self._init
        self._update_value(self._get_optimizer(trainer), value)
