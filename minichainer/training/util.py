"""Training utilities (`chainer.training.util`): `get_trigger`."""
from minichainer.training.triggers import interval_trigger


def _never_fire_trigger(trainer):
    return False


def get_trigger(trigger):
    """Return a trigger object for `trigger`.

    A callable is returned as is; None gives a trigger that never fires; anything else
    is unpacked into
    [`IntervalTrigger`][minichainer.training.triggers.interval_trigger.IntervalTrigger]
    (`(period, unit)`).

    Raises:
        ValueError: the tuple has an unknown unit or a non-positive period.
        TypeError: `trigger` is neither callable, None nor a `(period, unit)` pair.
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    try:
        period, unit = trigger
    except (TypeError, ValueError):
        raise TypeError('trigger must be a callable, None or a (period, unit) tuple such '
                        "as (1, 'epoch'), got {!r}".format(trigger)) from None
    return interval_trigger.IntervalTrigger(period, unit)
