"""TensorBoardReport: write the averaged observations as TensorBoard scalars."""
import functools
import os
import tempfile
import time
import warnings

import numpy

from minichainer import backend
from minichainer.training import extension
from minichainer.training.extensions import log_report

# Entry fields that are not observations: the iteration is the step of every point and
# TensorBoard records a wall time per point, so neither is written as a scalar.
_BOOKKEEPING = ('epoch', 'iteration', 'elapsed_time')

_EVENT_FILE_PREFIX = 'events.out.tfevents.'


@functools.lru_cache(maxsize=None)
def _default_bins():
    # The bucket limits of TensorFlow's histograms, which tensorboardX's
    # SummaryWriter.add_histogram uses by default: 0 and +-1e-12 * 1.1**k below 1e20.
    limit, positive = 1e-12, []
    while limit < 1e20:
        positive.append(limit)
        limit *= 1.1
    return [-v for v in reversed(positive)] + [0.0] + positive


def _import_tensorboardx():
    try:
        from tensorboardX import event_file_writer
        from tensorboardX import summary
        from tensorboardX.proto import event_pb2
        from tensorboardX.proto import summary_pb2
    except ImportError as e:
        raise ImportError(
            'TensorBoardReport needs the tensorboardX package, which is not installed '
            '({}). Install it with `pip install tensorboardX` (or '
            '`pip install minichainer[tensorboard]`).'.format(e)) from e
    return event_file_writer, summary, event_pb2, summary_pb2


class TensorBoardReport(extension.Extension):
    """Trainer extension that writes the observations as TensorBoard scalars.

    Beyond Chainer (which has no such extension): a live dashboard of the training
    through [tensorboardX](https://github.com/lanpa/tensorboardX) (install
    `minichainer[tensorboard]`; run `tensorboard --logdir result/tb` to watch).

    The values are those [`LogReport`][minichainer.training.extensions.log_report.LogReport] logs,
    computed by the same code (`IntervalMean`): each key's mean
    over the interval of `trigger`, written as one point per key at step = the
    iteration, with the wall time of the moment it was written.  `epoch`,
    `iteration` and `elapsed_time` are not written as scalars.  A key whose
    values are not numbers (a string, an array with several elements) is skipped with
    one warning naming it.  The event file is flushed at each point, so TensorBoard
    shows it at once.

    Resuming: the extension is serializable (the running means and the last step
    written go into the snapshot).  The resumed run writes a new event file into the
    same `logdir` that begins with TensorBoard's restart marker (a
    `SessionLog.START` event at `purge_step` = the step after the last one the
    snapshot had written): TensorBoard then drops the points the interrupted run wrote
    after the snapshot, so each step appears once.  A fresh run (iteration 0) purges
    whatever an earlier run left in the same `logdir`, as LogReport overwrites its log.

    Args:
        keys (iterable of str): Keys to write; every numeric observation if None.
        trigger: When to write a point (default `(1, 'epoch')`).
        logdir (str): Directory of the event files; `<trainer.out>/tb` if None.  It
            is created and checked to be writable at `initialize`.
        postprocess (callable): Called with each entry dict (as LogReport's) before it
            is written; keys it adds are written too.
        histograms (Link or list of Links): If given, the values of every parameter of
            these links and their gradients, the arrays
            [`ParameterStatistics`][minichainer.training.extensions.parameter_statistics.ParameterStatistics]
            summarizes, are written as TensorBoard histograms at each point, tagged like its keys
            without the statistic (`'predictor/l1/W/data'`, `'predictor/l1/W/grad'`).

    Raises:
        ImportError: tensorboardX is not installed.
    """

    def __init__(self, keys=None, trigger=(1, 'epoch'), logdir=None, postprocess=None,
                 histograms=None):
        self._tbx = _import_tensorboardx()
        if logdir is not None and not isinstance(logdir, (str, os.PathLike)):
            raise TypeError('TensorBoardReport: logdir must be a path or None, got '
                            '{!r}'.format(logdir))
        if postprocess is not None and not callable(postprocess):
            raise TypeError('TensorBoardReport: postprocess must be callable or None, '
                            'got {!r}'.format(postprocess))
        if histograms is not None and not isinstance(histograms, (list, tuple)):
            histograms = [histograms]
        for link in histograms or ():
            if not hasattr(link, 'namedparams'):
                raise TypeError('TensorBoardReport: histograms must be a Link or a list '
                                'of Links, got {!r}'.format(link))
        self._mean = log_report.IntervalMean(keys, trigger)
        self._postprocess = postprocess
        self._logdir_arg = logdir
        self._histograms = histograms
        self._logdir = None
        self._writer = None
        self._last_step = -1
        self._start_iteration = 0
        self._interval_keys = set()
        self._warned = set()

    @property
    def logdir(self):
        """The directory of the event files (known once the extension is initialized)."""
        return self._logdir

    def initialize(self, trainer):
        """Choose the logdir and check that event files can be written there.

        Raises:
            OSError: the directory cannot be created or written (the message names it).
        """
        logdir = self._logdir_arg
        if logdir is None:
            logdir = os.path.join(trainer.out, 'tb')
        logdir = os.fspath(logdir)
        try:
            os.makedirs(logdir, exist_ok=True)
            fd, probe = tempfile.mkstemp(prefix='.write-test.', dir=logdir)
            os.close(fd)
            os.remove(probe)
        except OSError as e:
            raise OSError('TensorBoardReport: cannot write event files to logdir '
                          '{!r}: {}'.format(logdir, e)) from e
        self._logdir = logdir
        # The writer (and so the restart marker) waits for the first call: initialize
        # may run again once snapshot(autoload=True) has loaded the state.
        self._close_writer()
        self._start_iteration = trainer.updater.iteration

    def __call__(self, trainer):
        accumulated = self._mean.add(trainer.observation)
        self._interval_keys.update(accumulated)
        if self._writer is None:
            self._open_writer(trainer)
        if self._mean.ends(trainer):
            entry = self._mean.pop(trainer)
            skipped = self._interval_keys.difference(entry)
            self._interval_keys = set()
            if skipped:
                self._warn_skipped(skipped)
            if self._postprocess is not None:
                self._postprocess(entry)
            self._write(entry)

    def _open_writer(self, trainer):
        if self._logdir is None:
            self.initialize(trainer)
        if self._last_step >= 0:
            purge_step = self._last_step + 1
        else:
            purge_step = self._start_iteration
        event_file_writer, _, event_pb2, _ = self._tbx
        # tensorboardX names event files by the second and the host: a counter keeps
        # the files of one logdir distinct and in the order they were written (the
        # order TensorBoard reads them in, so that its restart marker purges the right
        # points).  The writer is tensorboardX's synchronous one: a flushed point is
        # on disk, even if the process is killed right after.
        n_files = sum(1 for name in os.listdir(self._logdir)
                      if name.startswith(_EVENT_FILE_PREFIX))
        writer = event_file_writer.EventsWriter(
            os.path.join(self._logdir, 'events'), '.{:05d}'.format(n_files))
        # The restart marker, written as tensorboardX's SummaryWriter(purge_step=...)
        # does: TensorBoard drops the earlier points whose step is >= purge_step.
        wall_time = time.time()
        writer.write_event(event_pb2.Event(
            wall_time=wall_time, step=purge_step, file_version='brain.Event:2'))
        writer.write_event(event_pb2.Event(
            wall_time=wall_time, step=purge_step,
            session_log=event_pb2.SessionLog(status=event_pb2.SessionLog.START)))
        writer.flush()
        self._writer = writer

    def _warn_skipped(self, keys):
        new = sorted(k for k in keys if k not in self._warned)
        if new:
            self._warned.update(new)
            warnings.warn('TensorBoardReport: skipping the non-numeric observation(s) '
                          '{}'.format(', '.join(repr(k) for k in new)), stacklevel=3)

    def _write(self, entry):
        _, summary, event_pb2, summary_pb2 = self._tbx
        step = entry['iteration']
        values = []
        skipped = []
        for key, value in entry.items():
            if key in _BOOKKEEPING:
                continue
            try:
                value = float(value)
            except (TypeError, ValueError):
                skipped.append(key)
                continue
            values.extend(summary.scalar(key, value).value)
        if skipped:
            self._warn_skipped(skipped)
        if self._histograms:
            values.extend(self._histogram_values(summary))
        self._writer.write_event(event_pb2.Event(
            wall_time=time.time(), step=step, summary=summary_pb2.Summary(value=values)))
        self._writer.flush()
        self._last_step = step

    def _histogram_values(self, summary):
        cpu = backend.CpuDevice()
        values = []
        for link in self._histograms:
            link_name = link.name or ''
            for param_name, param in link.namedparams():
                for attr in ('data', 'grad'):
                    array = getattr(param, attr)
                    if array is None:
                        continue
                    flat = numpy.asarray(cpu.send(array)).ravel()
                    flat = flat[numpy.isfinite(flat)]
                    if flat.size == 0:
                        continue
                    tag = '{}{}/{}'.format(link_name, param_name, attr).lstrip('/')
                    values.extend(summary.histogram(tag, flat, _default_bins()).value)
        return values

    def finalize(self):
        """Flush and close the event file."""
        self._close_writer()

    def _close_writer(self):
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    def serialize(self, serializer):
        """Save or load the trigger, the running means and the last step written."""
        self._mean.serialize(serializer)
        self._last_step = int(serializer('_last_step', self._last_step))
