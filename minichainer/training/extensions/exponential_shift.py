"""ExponentialShift: multiply an optimizer attribute by `rate` at each call."""
from minichainer.training.extensions import _shift_base


class ExponentialShift(_shift_base.ShiftFromInitBase):
    """Sets `optimizer.<attr> = init * rate ** t` at the `t`-th call.

    Args:
        attr (str): Attribute to shift (e.g. `'lr'`).
        rate (float): Factor per call; must be non-negative.
        init (float): Initial value; the attribute's value at start if None.
        target (float): Value where the shift stops.
        optimizer: Optimizer to change; the `'main'` one by default.
    """

    def __init__(self, attr, rate, init=None, target=None, optimizer=None):
        if rate < 0:
            raise ValueError('ExponentialShift does not support negative rate, got '
                             '{!r}'.format(rate))
        super().__init__(attr, init, target, optimizer)
        self._rate = rate

    def __call__(self, trainer):
        self._t += 1
        optimizer = self._get_optimizer(trainer)
        value = self._init * (self._rate ** self._t)
        value = _shift_base.clip_to_target(value, self._target, self._rate > 1)
        self._update_value(optimizer, value)
