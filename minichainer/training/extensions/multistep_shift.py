"""MultistepShift: multiply an optimizer attribute by `gamma` at given calls."""
from minichainer.training import extension


class MultistepShift(extension.Extension):
    """Sets `optimizer.<attr> = init * gamma ** k` where `k` counts the entries of
    `step_value` reached so far.

    Args:
        attr (str): Attribute to shift.
        gamma (float): Factor at each step.
        step_value (list of int): Calls at which a step happens.
        init (float): Initial value; the attribute's value at start if None.
        optimizer: Optimizer to change; the `'main'` one by default.
    """

    def __init__(self, attr, gamma, step_value, init, optimizer=None):
        self._attr = attr
        self._gamma = gamma
        self._step_value = step_value
        self._init = init
        self._optimizer = optimizer
        self._stepvalue_size = len(step_value)
        self._current_step = 0
        self._t = 0

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._init is None:
            self._init = getattr(optimizer, self._attr)
        else:
            setattr(optimizer, self._attr, self._init * pow(self._gamma,
                                                            self._current_step))

    def __call__(self, trainer):
        self._t += 1
        optimizer = self._get_optimizer(trainer)
        if (self._current_step < self._stepvalue_size
                and self._t >= self._step_value[self._current_step]):
            self._current_step += 1
        setattr(optimizer, self._attr, self._init * pow(self._gamma, self._current_step))

    def serialize(self, serializer):
        """Save or load `_t` and `_current_step`."""
        self._t = serializer('_t', self._t)
        self._current_step = serializer('_current_step', self._current_step)
