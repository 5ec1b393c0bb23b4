"""IntervalTrigger: fires every `period` iterations or epochs."""
import numbers
import warnings


def check_unit(cls_name, unit):
    """Raise ValueError unless `unit` is `'epoch'` or `'iteration'`."""
    if unit not in ('epoch', 'iteration'):
        raise ValueError(
            "{}: unit must be either 'epoch' or 'iteration', got {!r}".format(cls_name, unit))



def serialize_previous_counts(name, serializer, previous_iteration, previous_epoch_detail):
    """Save or load a trigger's previous iteration and epoch detail (Chainer's keys
    `previous_iteration`, `previous_epoch_detail`); return the two values to keep.

    A snapshot without them (older Chainer) warns, as Chainer does, naming the trigger
    class `name`, and gives -1: the trigger then guesses them from the updater at its
    next call.
    """
    try:
        previous_iteration = serializer('previous_iteration', previous_iteration)
    except KeyError:
        warnings.warn(
            'The previous value of iteration is not saved. {} guesses it using current '
            'iteration. If this trigger is not called at every iteration, it may not '
            'work correctly.'.format(name))
        previous_iteration = -1
    try:
        previous_epoch_detail = serializer('previous_epoch_detail', previous_epoch_detail)
    except KeyError:
        warnings.warn(
            'The previous value of epoch_detail is not saved. {} uses the value of '
            'trainer.updater.previous_epoch_detail. If this trigger is not called at '
            'every iteration, it may not work correctly.'.format(name))
        previous_epoch_detail = -1.
    return previous_iteration, previous_epoch_detail


class IntervalTrigger:
    """Trigger that fires each time the iteration or epoch count crosses a multiple of
    `period`.

    It compares the updater's current `iteration`/`epoch_detail` with the value it
    saw at its previous call (Chainer 7's semantics), so it fires correctly with
    fractional epoch periods and after a resume (the previous values are serialized).

    Args:
        period (int or float): Length of the interval; must be positive.
        unit (str): `'iteration'` or `'epoch'`.

    Raises:
        ValueError: unknown unit or non-positive period.
    """

    def __init__(self, period, unit):
        check_unit('IntervalTrigger', unit)
        if (isinstance(period, bool) or not isinstance(period, numbers.Real)
                or not period > 0):
            raise ValueError('IntervalTrigger: period must be a positive number, got '
                             '{!r}'.format(period))
        self.period = period
        self.unit = unit
        self._previous_iteration = 0
        self._previous_epoch_detail = 0.
        self.count = 0  # kept for compatibility with old Chainer code

    def __call__(self, trainer):
        """Return True when the extension should be called at this iteration."""
        updater = trainer.updater
        period = self.period
        # Read once: the property goes through the updater to its iterator (Chainer's
        # trigger reads it up to three times per call; the value cannot change between).
        epoch_detail = getattr(updater, 'epoch_detail', None)
        if self.unit == 'epoch':
            if epoch_detail is None:
                epoch_detail = updater.epoch_detail  # the updater's own AttributeError
            previous = self._previous_epoch_detail
            if previous < 0:
                previous = updater.previous_epoch_detail
            self.count = epoch_detail // period
            fire = previous // period != epoch_detail // period
        else:
            iteration = updater.iteration
            previous = self._previous_iteration
            if previous < 0:
                previous = iteration - 1
            fire = previous // period != iteration // period
        self._previous_iteration = updater.iteration
        if epoch_detail is not None:
            self._previous_epoch_detail = epoch_detail
        return fire

    def serialize(self, serializer):
        """Save or load the values seen at the previous call."""
        self._previous_iteration, self._previous_epoch_detail = serialize_previous_counts(
            type(self).__name__, serializer, self._previous_iteration,
            self._previous_epoch_detail)

    def get_training_length(self):
        """Return `(period, unit)`."""
        return (self.period, self.unit)

    def __str__(self):
        return "{}({}, '{}')".format(type(self).__name__, self.period, self.unit)
