"""LogReport: accumulate observations and write them as a JSON log."""
import json
import os
import warnings

from minichainer import reporter
from minichainer import serializer as serializer_module
from minichainer.training import extension
from minichainer.training import trigger as trigger_module
from minichainer.utils import atomic_write


class IntervalMean:
    """The entries LogReport logs: the trainer's observations averaged over each
    interval of a trigger.

    Reporting extensions share it so that they record the same values as LogReport
    ([`TensorBoardReport`][minichainer.training.extensions.tensorboard_report.TensorBoardReport]
    does).  `add` accumulates the current observation; when `ends` says the interval is over, `pop`
    returns the entry (the means as floats, then `epoch`, `iteration` and `elapsed_time`, passed
    through `postprocess`) and starts a new interval.  Its state is saved under
    `_trigger` and `_summary`.

    Args:
        keys (iterable of str): Keys to accumulate; every scalar if None.
        trigger: When an interval ends (default `(1, 'epoch')`).
        postprocess (callable): Called with each entry dict before it is returned.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), postprocess=None):
        self.keys = keys
        self.trigger = trigger_module.get_trigger(trigger)
        self.postprocess = postprocess
        self.summary = reporter.DictSummary()

    def add(self, observation):
        """Accumulate the scalars of `observation` (those of `keys`); return the
        dict that was accumulated (`observation` itself when `keys` is None)."""
        keys = self.keys
        if keys is not None:
            observation = {k: observation[k] for k in keys if k in observation}
        self.summary.add(observation)
        return observation

    def ends(self, trainer):
        """True when the interval ends now: the trigger fires, or this is a call made
        before training (`call_before_training`), whose entry stands on its own so that
        it is not folded into the first interval's means, as in Chainer."""
        return trainer.is_before_training or self.trigger(trainer)

    def pop(self, trainer):
        """Return the entry of the interval that ends now and start a new one."""
        stats = self.summary.compute_mean()
        stats_cpu = {}
        for name, value in stats.items():
            stats_cpu[name] = float(value)
        updater = trainer.updater
        stats_cpu['epoch'] = updater.epoch
        stats_cpu['iteration'] = updater.iteration
        stats_cpu['elapsed_time'] = trainer.elapsed_time

        if self.postprocess is not None:
            self.postprocess(stats_cpu)
        self.summary = reporter.DictSummary()
        return stats_cpu

    def serialize(self, serializer):
        """Save or load the trigger and the running summary."""
        if hasattr(self.trigger, 'serialize'):
            self.trigger.serialize(serializer['_trigger'])
        try:
            self.summary.serialize(serializer['_summary'])
        except KeyError:
            warnings.warn('The statistics are not saved.')


class LogReport(extension.Extension):
    """Trainer extension that averages the observations over an interval and appends
    the means to a log, written as JSON to `<out>/<filename>`.

    Each entry holds the mean of every accumulated key plus `epoch`, `iteration`
    and `elapsed_time`, in that order, as in Chainer; the file is a JSON list
    (`indent=4`) written atomically.  Each entry is encoded once, when it is added
    (so changing an old entry in place later does not change the file).

    Args:
        keys (iterable of str): Keys to accumulate; all keys if None.
        trigger: When to emit an entry (default `(1, 'epoch')`).
        postprocess (callable): Called with each entry dict before it is stored.
        filename (str): Log file name (a format string receiving the entry's values);
            when None, `log_name` (the older name of this argument, `'log'` by
            default) is used, so `log_name=None` writes no file.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), postprocess=None, filename=None,
                 **kwargs):
        log_name = kwargs.pop('log_name', 'log')
        if filename is None:
            filename = log_name
        if kwargs:
            raise TypeError('LogReport() got unexpected keyword argument(s) {}'.format(
                ', '.join(repr(k) for k in sorted(kwargs))))
        self._mean = IntervalMean(keys, trigger, postprocess)
        self._log = []
        self._rendered = []
        self._rendered_for = self._log
        self._log_name = filename

    def __call__(self, trainer):
        mean = self._mean
        mean.add(trainer.observation)

        if mean.ends(trainer):
            stats_cpu = mean.pop(trainer)
            self._log.append(stats_cpu)

            if self._log_name is not None:
                log_name = self._log_name.format(**stats_cpu)
                atomic_write.write_text(os.path.join(trainer.out, log_name),
                                        self._render())

    def _render(self):
        # Same text as json.dumps(self._log, indent=4) (what Chainer writes), built from
        # entries rendered once each instead of re-encoding the whole log every time.
        log = self._log
        rendered = self._rendered
        if self._rendered_for is not log or len(rendered) > len(log):
            rendered = self._rendered = []
            self._rendered_for = log
        for entry in log[len(rendered):]:
            rendered.append('    ' + json.dumps(entry, indent=4).replace('\n', '\n    '))
        if not rendered:
            return '[]'
        return '[\n' + ',\n'.join(rendered) + '\n]'

    @property
    def _trigger(self):
        return self._mean.trigger

    @property
    def _summary(self):
        return self._mean.summary

    @property
    def log(self):
        """The list of emitted entries (dicts)."""
        return self._log

    def serialize(self, serializer):
        """Save or load the trigger, the running summary and the log (as JSON)."""
        self._mean.serialize(serializer)
        if isinstance(serializer, serializer_module.Serializer):
            serializer('_log', json.dumps(self._log))
        else:
            self._log = json.loads(str(serializer('_log', '')))

    def _init_summary(self):
        self._mean.summary = reporter.DictSummary()
