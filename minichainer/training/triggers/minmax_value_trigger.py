"""Triggers that fire when a reported value reaches a new best."""
from minichainer import reporter
from minichainer.training import util


class BestValueTrigger:
    """Trigger that fires when the mean of `key` over each interval improves.

    Args:
        key (str): Observation key to watch (e.g. `'validation/main/loss'`).
        compare (callable): `compare(best, new)` is True when `new` is better.
        trigger: Interval at which the mean is checked (default `(1, 'epoch')`).
    """

    def __init__(self, key, compare, trigger=(1, 'epoch')):
        self._key = key
        self._best_value = None
        self._interval_trigger = util.get_trigger(trigger)
        self._init_summary()
        self._compare = compare

    def __call__(self, trainer):
        """Return True when the interval ends with a new best mean of `key`.

        Raises:
            KeyError: at a check, nothing was reported under `key` in the interval.
        """
        observation = trainer.observation
        key = self._key
        if key in observation:
            self._summary.add({key: observation[key]})
        if not self._interval_trigger(trainer):
            return False
        stats = self._summary.compute_mean()
        if key not in stats:
            raise KeyError('Key "{}" not found in the observation (current available keys '
                           'are {})'.format(key, list(stats.keys())))
        value = float(stats[key])
        self._init_summary()
        if self._best_value is None or self._compare(self._best_value, value):
            self._best_value = value
            return True
        return False

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def serialize(self, serializer):
        """Save or load the interval trigger, the running summary and the best value."""
        self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        best = serializer('best_value', self._best_value)
        self._best_value = None if best is None else float(best)


class MaxValueTrigger(BestValueTrigger):
    """Fires when the mean of `key` over an interval exceeds the best so far."""

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda max_value, new_value: new_value > max_value, trigger)


class MinValueTrigger(BestValueTrigger):
    """Fires when the mean of `key` over an interval falls below the best so far."""

    def __init__(self, key, trigger=(1, 'epoch')):
        super().__init__(key, lambda min_value, new_value: new_value < min_value, trigger)
