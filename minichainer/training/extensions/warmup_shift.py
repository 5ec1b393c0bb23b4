"""WarmupShift: move an optimizer attribute linearly from a start value to `init`."""
from minichainer.training import extension


class WarmupShift(extension.Extension):
    """Sets `optimizer.<attr>` evenly from `warmup_start` to `init` over the first
    `warmup_iter` calls, then leaves it alone.

    Args:
        attr (str): Attribute to shift.
        warmup_start (float): Value before the first call; the attribute's value at
            start if None.
        warmup_iter (int): Number of calls of the warm-up.
        init (float): Value reached after `warmup_iter` calls.
        optimizer: Optimizer to change; the `'main'` one by default.

    Unlike Chainer, `initialize` after a resume restores the value reached at the
    snapshot instead of `warmup_start` (computed from the serialized `_t`).
    """

    def __init__(self, attr, warmup_start, warmup_iter, init, optimizer=None):
        self._attr = attr
        self._warmup_start = warmup_start
        self._warmup_iter = warmup_iter
        self._init = init
        self._optimizer = optimizer
        self._t = 0

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def _value(self, t):
        t = min(t, self._warmup_iter)
        return (t * self._init + (self._warmup_iter - t) * self._warmup_start) \
            / self._warmup_iter

    def initialize(self, trainer):
        optimizer = self._get_optimizer(trainer)
        if self._warmup_start is None:
            self._warmup_start = getattr(optimizer, self._attr)
        if self._t == 0:
            setattr(optimizer, self._attr, self._warmup_start)
        else:
            setattr(optimizer, self._attr, self._value(self._t))

    def __call__(self, trainer):
        self._t += 1
        if self._t <= self._warmup_iter:
            setattr(self._get_optimizer(trainer), self._attr, self._value(self._t))

    def serialize(self, serializer):
        """Save or load the call count `_t`."""
        self._t = serializer('_t', self._t)
