"""Common machinery of the hyperparameter-shift extensions."""
import numpy

from minichainer.training import extension


def _to_python(value):
    if isinstance(value, numpy.ndarray) or isinstance(value, numpy.generic):
        return value.item()
    return value


class ShiftBase(extension.Extension):
    """Sets `optimizer.<attr>` every call; remembers `_t` and `_last_value`."""

    def __init__(self, attr, optimizer=None):
        self._attr = attr
        self._optimizer = optimizer
        self._t = 0
        self._last_value = None

    def _get_optimizer(self, trainer):
        return self._optimizer or trainer.updater.get_optimizer('main')

    def _update_value(self, optimizer, value):
        setattr(optimizer, self._attr, value)
        self._last_value = value

    def serialize(self, serializer):
        """Save or load the call count `_t` and the last value `_last_value`."""
        self._t = serializer('_t', self._t)
        self._last_value = _to_python(serializer('_last_value', self._last_value))


class ShiftFromInitBase(ShiftBase):
    """A shift starting at `init` (the attribute's value at start when None) and
    optionally stopping at `target`; `initialize` restores the last value on resume.
    """

    def __init__(self, attr, init, target, optimizer=None):
        super().__init__(attr, optimizer)
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


def clip_to_target(value, target, growing):
    # Stop at ``target`` (written as a ratio so that negative values work, as Chainer).
    if target is not None:
        if growing:
            if value / target > 1:
                value = target
        elif value / target < 1:
            value = target
    return value
