"""InverseShift: decay an optimizer attribute as `init * (1 + gamma * t) ** -power`."""
from minichainer.training.extensions import _shift_base


class InverseShift(_shift_base.ShiftFromInitBase):
    """Sets `optimizer.<attr> = init * (1 + gamma * t) ** (-power)`.

    Args:
        attr (str): Attribute to shift.
        gamma (float): Non-negative factor.
        power (float): Exponent.
        init (float): Initial value; the attribute's value at start if None.
        target (float): Value where the shift stops.
        optimizer: Optimizer to change; the `'main'` one by default.
    """

    def __init__(self, attr, gamma, power, init=None, target=None, optimizer=None):
        if gamma < 0:
            raise ValueError('InverseShift does not support negative gamma, got '
                             '{!r}'.format(gamma))
        super().__init__(attr, init, target, optimizer)
        self._gamma = gamma
        self._power = power

    def __call__(self, trainer):
        self._t += 1
        value = self._init * (1 + self._gamma * self._t) ** (-self._power)
        value = _shift_base.clip_to_target(value, self._target, self._power < 0)
        self._update_value(self._get_optimizer(trainer), value)
