"""TimeTrigger: fires every `period` seconds of training time."""
import numbers


class TimeTrigger:
    """Trigger that fires when `trainer.elapsed_time` passes each multiple of `period`.

    Args:
        period (float): Interval in seconds; must be positive.
    """

    def __init__(self, period):
        if isinstance(period, bool) or not isinstance(period, numbers.Real) or period <= 0:
            raise ValueError('TimeTrigger: period must be a positive number of seconds, '
                             'got {!r}'.format(period))
        self._period = period
        self._next_time = self._period

    def __call__(self, trainer):
        if self._next_time < trainer.elapsed_time:
            self._next_time += self._period
            return True
        return False

    def serialize(self, serializer):
        """Save or load the time of the next firing."""
        self._next_time = serializer('next_time', self._next_time)
