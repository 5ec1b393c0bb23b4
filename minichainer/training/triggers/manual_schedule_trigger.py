"""ManualScheduleTrigger: fires at the given iterations or epochs."""
import warnings

from minichainer.training.triggers import interval_trigger


class ManualScheduleTrigger:
    """Trigger that fires when the count passes one of `points`.

    Args:
        points (int, float or list of them): Iterations or epochs to fire at.
        unit (str): `'iteration'` or `'epoch'`.

    Attributes:
        finished (bool): True once the last point has passed (the trainer then skips
            the extension's `initialize`).
    """

    def __init__(self, points, unit):
        interval_trigger.check_unit('ManualScheduleTrigger', unit)
        self.points = points if isinstance(points, list) else [points]
        if not self.points:
            raise ValueError('ManualScheduleTrigger: points must not be empty')
        self.unit = unit
        self.finished = False
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.

    def __call__(self, trainer):
        """Return True when a point lies in (previous count, current count]."""
        updater = trainer.updater
        if self.unit == 'epoch':
            current = updater.epoch_detail
            previous = self._previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail
        else:
            current = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = current - 1
        fire = any(previous < p <= current for p in self.points)
        last = max(self.points)
        if hasattr(self, '_finished_is_tmp'):
            del self._finished_is_tmp
            if current >= last:
                self.finished = True
        if fire and current >= last:
            self.finished = True
        self._previous_iteration = updater.iteration
        if hasattr(updater, 'epoch_detail'):
            self._previous_epoch_detail = updater.epoch_detail
        return fire

    def serialize(self, serializer):
        """Save or load the previous counts and the `finished` flag."""
        self._previous_iteration, self._previous_epoch_detail = \
            interval_trigger.serialize_previous_counts(
                type(self).__name__, serializer, self._previous_iteration,
                self._previous_epoch_detail)
        try:
            self.finished = serializer('finished', self.finished)
        except KeyError:
            warnings.warn(
                'The flag of finished is not saved. ManualScheduleTrigger set the flag '
                'to `False` to force initialization and reset in next `__call__`.')
            self.finished = False
            self._finished_is_tmp = True
