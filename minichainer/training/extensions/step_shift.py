"""StepShift: multiply an optimizer attribute by `gamma` every `step` calls."""
import numpy

from minichainer.training.extensions import _shift_base


class StepShift(_shift_base.ShiftFromInitBase):
    """Sets `optimizer.<attr> = init * gamma ** floor(t / step)`.

    Args:
        attr (str): Attribute to shift.
        gamma (float): Factor per step.
        step (int): Number of calls per step.
        init (float): Initial value; the attribute's value at start if None.
        target (float): Value where the shift stops.
        optimizer: Optimizer to change; the `'main'` one by default.
    """

    def __init__(self, attr, gamma, step, init=None, target=None, optimizer=None):
        super().__init__(attr, init, target, optimizer)
        self._gamma = gamma
        self._step = step

    def __call__(self, trainer):
        self._t += 1
        value = self._init * self._gamma ** numpy.floor(self._t / self._step)
        value = _shift_base.clip_to_target(value, self._target, self._gamma > 1)
        self._update_value(self._get_optimizer(trainer), value)
