"""MicroAverage: report sum(numerator) / sum(denominator) over an interval."""
from minichainer import reporter
from minichainer.training import extension
from minichainer.training import trigger as trigger_module


class MicroAverage(extension.Extension):
    """Trainer extension computing a micro average, e.g. accuracy over all examples
    from per-batch correct counts and batch sizes.

    Args:
        numerator_key (str), denominator_key (str): Observation keys to sum.
        result_key (str): Key under which the ratio is reported.
        trigger: When to report and reset (default `(1, 'epoch')`).
    """

    priority = extension.PRIORITY_EDITOR

    def __init__(self, numerator_key, denominator_key, result_key, trigger=(1, 'epoch')):
        self._trigger = trigger_module.get_trigger(trigger)
        self._numerator_key = numerator_key
        self._denominator_key = denominator_key
        self._result_key = result_key
        self._numerator = 0
        self._denominator = 0

    def __call__(self, trainer):
        observation = trainer.observation
        if not (self._numerator_key in observation
                and self._denominator_key in observation):
            return
        self._numerator += observation[self._numerator_key]
        self._denominator += observation[self._denominator_key]
        if self._trigger(trainer):
            result = float(self._numerator) / self._denominator
            self._numerator = 0
            self._denominator = 0
            reporter.report({self._result_key: result})

    def serialize(self, serializer):
        """Save or load the running sums."""
        self._numerator = serializer('_numerator', self._numerator)
        self._denominator = serializer('_denominator', self._denominator)
