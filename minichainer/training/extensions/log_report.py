"""LogReport: accumulate observations and write them as a JSON log."""
import json
import os
import warnings

from minichainer import reporter
from minichainer.training import extension
from minichainer.training import trigger as trigger_module
from minichainer.training.extensions import _util


class LogReport(extension.Extension):
    """Trainer extension that averages the observations over an interval and appends
    the means to a log, written as JSON to ``<out>/<filename>``.

    Each entry holds the mean of every accumulated key plus ``epoch``, ``iteration``
    and ``elapsed_time``, in that order, as in Chainer; the file is a JSON list
    (``indent=4``) written atomically.  Each entry is encoded once, when it is added
    (so changing an old entry in place later does not change the file).

    Args:
        keys (iterable of str): Keys to accumulate; all keys if None.
        trigger: When to emit an entry (default ``(1, 'epoch')``).
        postprocess (callable): Called with each entry dict before it is stored.
        filename (str): Log file name (a format string receiving the entry's values);
            when None, ``log_name`` (the older name of this argument, ``'log'`` by
            default) is used, so ``log_name=None`` writes no file.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), postprocess=None, filename=None,
                 **kwargs):
        log_name = kwargs.pop('log_name', 'log')
        if filename is None:
            filename = log_name
        if kwargs:
            raise TypeError('LogReport() got unexpected keyword argument(s) {}'.format(
                ', '.join(repr(k) for k in sorted(kwargs))))
        self._keys = keys
        self._trigger = trigger_module.get_trigger(trigger)
        self._postprocess = postprocess
        self._log = []
        self._rendered = []
        self._rendered_for = self._log
        self._log_name = filename
        self._init_summary()

    def __call__(self, trainer):
        keys = self._keys
        observation = trainer.observation
        if keys is None:
            self._summary.add(observation)
        else:
            self._summary.add({k: observation[k] for k in keys if k in observation})

        # Before training (a call_before_training call at iteration 0) the entry is
        # always emitted, so that it is not folded into the first interval's means.
        if trainer.is_before_training or self._trigger(trainer):
            stats = self._summary.compute_mean()
            stats_cpu = {}
            for name, value in stats.items():
                stats_cpu[name] = float(value)
            updater = trainer.updater
            stats_cpu['epoch'] = updater.epoch
            stats_cpu['iteration'] = updater.iteration
            stats_cpu['elapsed_time'] = trainer.elapsed_time

            if self._postprocess is not None:
                self._postprocess(stats_cpu)

            self._log.append(stats_cpu)

            if self._log_name is not None:
                log_name = self._log_name.format(**stats_cpu)
                _util.atomic_write_text(os.path.join(trainer.out, log_name),
                                        self._render())

            self._init_summary()

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
    def log(self):
        """The list of emitted entries (dicts)."""
        return self._log

    def serialize(self, serializer):
        """Save or load the trigger, the running summary and the log (as JSON)."""
        if hasattr(self._trigger, 'serialize'):
            self._trigger.serialize(serializer['_trigger'])
        try:
            self._summary.serialize(serializer['_summary'])
        except KeyError:
            warnings.warn('The statistics are not saved.')
        if _util.is_serializer(serializer):
            serializer('_log', json.dumps(self._log))
        else:
            self._log = json.loads(str(serializer('_log', '')))

    def _init_summary(self):
        self._summary = reporter.DictSummary()
