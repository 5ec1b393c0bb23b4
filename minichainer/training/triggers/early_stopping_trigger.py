"""EarlyStoppingTrigger: stop training when a monitored value stops improving."""
import operator
import warnings

from minichainer import reporter
from minichainer.training import util


class EarlyStoppingTrigger:
    """Stop trigger that fires when `monitor` has not improved for `patience` checks,
    or when `max_trigger` fires.

    Args:
        check_trigger: When to check the monitored value (default `(1, 'epoch')`).
        monitor (str): Observation key to watch (default `'main/loss'`).
        patience (int): Number of checks without improvement before stopping
            (default 3; `patients` is accepted as an alias).
        mode (str): `'max'`, `'min'` or `'auto'` (max if `'accuracy'` is in
            `monitor`, min otherwise).
        verbose (bool): Print the decisions.
        max_trigger: Trigger that stops training anyway (default `(100, 'epoch')`).

    Unlike Chainer 7 (which has none), it has a `serialize` method so the counts
    survive a resume.
    """

    def __init__(self, check_trigger=(1, 'epoch'), monitor='main/loss', patience=None,
                 mode='auto', verbose=False, max_trigger=(100, 'epoch'), **kwargs):
        patients = kwargs.pop('patients', None)
        if kwargs:
            raise TypeError('EarlyStoppingTrigger() got unexpected keyword argument(s) '
                            '{}'.format(', '.join(repr(k) for k in sorted(kwargs))))
        if patients is not None:
            if patience is not None:
                raise TypeError(
                    "Both 'patience' and 'patients' arguments are specified. 'patients' "
                    "is an alias of the former. Specify only 'patience'.")
            patience = patients
        if patience is None:
            patience = 3
        if mode not in ('auto', 'max', 'min'):
            raise ValueError("EarlyStoppingTrigger: mode must be 'auto', 'max' or 'min', "
                             'got {!r}'.format(mode))
        self.count = 0
        self.patience = patience
        self.monitor = monitor
        self.verbose = verbose
        self.already_warning = False
        self._max_trigger = util.get_trigger(max_trigger)
        self._interval_trigger = util.get_trigger(check_trigger)
        self._init_summary()
        if mode == 'max' or (mode == 'auto' and 'accuracy' in monitor):
            self._compare = operator.gt
            self.best = float('-inf')
            if verbose:
                print('early stopping: operator is greater')
        else:
            self._compare = operator.lt
            self.best = float('inf')
            if verbose:
                print('early stopping: operator is less')

    def __call__(self, trainer):
        observation = trainer.observation
        if self.monitor in observation:
            self._summary.add({self.monitor: observation[self.monitor]})
        if self._max_trigger(trainer):
            return True
        if not self._interval_trigger(trainer):
            return False
        if self.monitor not in observation:
            warnings.warn('{} is not in observation'.format(self.monitor))
            return False
        current = float(self._summary.compute_mean()[self.monitor])
        self._init_summary()
        if self._compare(current, self.best):
            self.best = current
            self.count = 0
        else:
            self.count += 1
        if self._stop_condition():
            if self.verbose:
                print('Epoch {}: early stopping'.format(trainer.updater.epoch))
            return True
        return False

    def _stop_condition(self):
        if self.verbose:
            print('current count: {}'.format(self.count))
        return self.count >= self.patience

    def _init_summary(self):
        self._summary = reporter.DictSummary()

    def get_training_length(self):
        """Return the training length of `max_trigger`."""
        return self._max_trigger.get_training_length()

    def serialize(self, serializer):
        """Save or load the counts, the best value and the inner triggers."""
        if hasattr(self._max_trigger, 'serialize'):
            self._max_trigger.serialize(serializer['max_trigger'])
        if hasattr(self._interval_trigger, 'serialize'):
            self._interval_trigger.serialize(serializer['interval_trigger'])
        self._summary.serialize(serializer['summary'])
        self.count = serializer('count', self.count)
        self.best = serializer('best', self.best)
