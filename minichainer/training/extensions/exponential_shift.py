"""ExponentialShift: multiply an optimizer attribute by ``rate`` at each call."""
from minichainer.training.extensions import _shift_base


class ExponentialShift(_shift_base._ShiftBase):
    """Sets ``optimizer.<attr> = init * rate ** t`` at the ``t``-th call.

    Args:
        attr (str): Attribute to shift (e.g. ``'lr'``).
        rate (float): Factor per call; must be non-negative.
        init (float): Initial value; the attribute's value at start if None.
        target (float): Value where the shift stops.
        optimizer: Optimizer to change; the ``'main'`` one by default.
    """

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        if rate < 0:
            raise ValueError('ExponentialShift does not support negative rate, got '
                             '{!r}'.format(rate))
        super().__init__(attr, optimizer)
        self._rate = rate
        self._init = init
        self._target = target

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        if self._last_value is not None:
            self._update_value(optimizer, self._last_value)
        else:
            self._update_value(optimizer, self._init)

    def __call__(self, trainer):
        self._t += 1
        optimizer = self._get_optimizer(trainer)
        value = self._init * (self._rate ** self._t)
        value = _shift_base._clip_to_target(value, self._target, self._rate > 1)
        self._update_value(optimizer, value)
