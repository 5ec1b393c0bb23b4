"""Snapshot writers: how (synchronously, in a thread, in a process, through a queue)
the snapshot extension writes its files.

Every writer writes to one temporary file in the output directory (a hidden name ending
in `.tmp`, see `minichainer.utils.atomic_write`) and renames it into place with
`os.replace`, so a snapshot file is always complete; post-save hooks (used by
`n_retains` cleanup) run after the rename.

Beyond Chainer: a write that fails in the background (a full disk, a permission error,
a value the save function cannot store, a writer process killed) is not only printed:
it is raised in the training loop as
[`SnapshotWriteError`][minichainer.training.extensions.snapshot_writers.SnapshotWriteError], naming
the file and the cause, when the writer is next called (the next snapshot) or at the latest by
`finalize()` (which the trainer calls when training ends).  The writer processes exit by themselves
when the training process dies.
"""
import collections
import multiprocessing
import os
import pickle
import queue
import signal
import threading
import traceback

from minichainer.iterators import _process_guard
from minichainer.serializers import npz
from minichainer.utils import atomic_write

# A failure report sent from a writer process must fit in a pipe's buffer.
_MAX_TRACEBACK = 4000
_MAX_PICKLED_ERROR = 2000


class SnapshotWriteError(RuntimeError):
    """A snapshot was not written by a background writer.

    Attributes:
        path (str): The snapshot file that was not written.

    The original exception is the `__cause__` (for a writer process, a copy of it when
    it can be pickled, whose own cause holds the traceback text).
    """

    def __init__(self, message, path=None):
        super().__init__(message)
        self.path = path


class _RemoteTraceback(Exception):
    def __init__(self, tb):
        super().__init__(tb)
        self.tb = tb

    def __str__(self):
        return '\n\nTraceback in the writer process:\n' + self.tb


def _default_savefun():
    return npz.save_npz


def _mp_context():
    # Writers hand closures (cleanup hooks, savefuns) to their worker processes, which
    # only the fork start method can do (Python 3.14 defaults to forkserver on Linux).
    # With fork as the default, the plain ``multiprocessing`` classes are used.
    if multiprocessing.get_context().get_start_method() == 'fork':
        return multiprocessing
    if 'fork' in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context('fork')
    return multiprocessing


def is_temp_name(name):
    """Whether `name` is a writer's temporary file (`.<name>.tmp`, renamed when complete);
    the snapshot extension's autoload skips these."""
    return name.startswith('.') and name.endswith('.tmp')


def _describe_exit(code):
    if code < 0:
        try:
            return 'was killed by signal {}'.format(signal.Signals(-code).name)
        except ValueError:
            return 'was killed by signal {}'.format(-code)
    return 'exited with code {}'.format(code)


def _safe_path(outdir, filename):
    try:
        return os.path.join(outdir, filename)
    except TypeError:
        return '{}/{}'.format(outdir, filename)


def _failure_report(path, exc):
    """A small picklable description of `exc` to send from a writer process."""
    tb = ''.join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if len(tb) > _MAX_TRACEBACK:
        tb = '...\n' + tb[-_MAX_TRACEBACK:]
    pickled = None
    try:
        data = pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL)
        pickle.loads(data)
        if len(data) <= _MAX_PICKLED_ERROR:
            pickled = data
    except Exception:
        pass
    return (path, type(exc).__name__, str(exc)[:_MAX_TRACEBACK], pickled, tb)


class Writer:
    """Base class of snapshot writers.

    Subclasses implement `__call__(filename, outdir, target)`, typically by calling
    [`save`][minichainer.training.extensions.snapshot_writers.Writer.save] now or later.
    """

    def __init__(self):
        self._post_save_hooks = []
        self._failures = collections.deque()

    def __call__(self, filename, outdir, target):
        raise NotImplementedError

    def __del__(self):
        try:
            self.finalize()
        except Exception:
            pass

    def finalize(self):
        """Wait for pending writes to finish; nothing for synchronous writers."""
        pass

    def save(self, filename, outdir, target, savefun, **kwds):
        """Write `target` with `savefun(path, target, **kwds)` to
        `outdir/filename` atomically, then run the post-save hooks.

        `savefun` is given the path of the temporary file; `save_npz` and
        `save_hdf5` write into it directly, so one write makes one temporary file.
        """
        def write(fd, tmppath):
            os.close(fd)
            savefun(tmppath, target, **kwds)

        atomic_write.write_atomically(outdir, filename, write, fsync=True)
        self._post_save()

    def _post_save(self):
        for hook in getattr(self, '_post_save_hooks', ()):
            hook()

    def _add_cleanup_hook(self, hook_fun):
        """Register `hook_fun()` to run after each completed save."""
        if not hasattr(self, '_post_save_hooks'):
            self._post_save_hooks = []
        self._post_save_hooks.append(hook_fun)

    # -- failures of background writes ------------------------------------------------
    def _record_failure(self, path, exc):
        """Remember that writing `path` failed with `exc` (called off the main
        thread; raised there by `_raise_failures`)."""
        failures = getattr(self, '_failures', None)
        if failures is None:
            failures = self._failures = collections.deque()
        failures.append((path, exc))

    def _pending_failures(self):
        failures = getattr(self, '_failures', None)
        found = []
        while failures:
            found.append(failures.popleft())
        return found

    def _raise_failures(self):
        """Raise [`SnapshotWriteError`][minichainer.training.extensions.snapshot_writers.SnapshotWriteError]
        for the first failed background write recorded since the last call (mentioning any
        others)."""
        found = self._pending_failures()
        if not found:
            return
        path, exc = found[0]
        if isinstance(exc, str):  # a process that died without a report
            message, cause = exc, None
        else:
            message, cause = '{}: {}'.format(type(exc).__name__, exc), exc
        text = '{}: the snapshot {!r} was not written: {}'.format(
            type(self).__name__, path, message)
        if len(found) > 1:
            text += ' ({} more failed write(s): {})'.format(
                len(found) - 1, ', '.join(repr(p) for p, _ in found[1:]))
        raise SnapshotWriteError(text, path) from cause


class SimpleWriter(Writer):
    """Writes the snapshot synchronously in the main process (a failure raises at
    once).

    Args:
        savefun: `savefun(path, target, **kwds)`; `save_npz` by default.
        kwds: Extra keyword arguments for `savefun`.
    """

    def __init__(self, savefun=None, **kwds):
        super().__init__()
        self._savefun = savefun if savefun is not None else _default_savefun()
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class StandardWriter(Writer):
    """Base of writers that save in a worker (thread or process) per snapshot; a new
    snapshot first waits for the previous worker, and raises
    [`SnapshotWriteError`][minichainer.training.extensions.snapshot_writers.SnapshotWriteError]
    if that one failed."""

    def __init__(self, savefun=None, **kwds):
        super().__init__()
        self._savefun = savefun if savefun is not None else _default_savefun()
        self._kwds = kwds
        self._worker = None
        self._started = False
        self._finalized = False

    def __call__(self, filename, outdir, target):
        if self._started:
            self._join_worker()
        self._raise_failures()
        self._filename = filename
        self._path = _safe_path(outdir, filename)
        self._worker = self.create_worker(filename, outdir, target, **self._kwds)
        self._worker.start()
        self._started = True

    def create_worker(self, filename, outdir, target, **kwds):
        """Return an unstarted worker (with `start`/`join`) that saves."""
        raise NotImplementedError

    def _join_worker(self):
        self._worker.join()
        self._started = False
        self._collect_failures()
        code = getattr(self._worker, 'exitcode', None)
        if isinstance(code, int) and code != 0 and not self._saw_report:
            self._record_failure(getattr(self, '_path', '?'), 'the writer process {}'.format(
                _describe_exit(code)))

    _saw_report = False

    def _collect_failures(self):
        """Gather failures reported by a worker process (nothing for threads)."""

    def _save_in_background(self, filename, outdir, target, savefun, kwds):
        try:
            self.save(filename, outdir, target, savefun, **kwds)
        except Exception as e:
            self._record_failure(_safe_path(outdir, filename), e)

    def finalize(self):
        """Wait for the running worker; raise
        [`SnapshotWriteError`][minichainer.training.extensions.snapshot_writers.SnapshotWriteError]
        if a write failed since the last snapshot."""
        if getattr(self, '_started', False):
            if not self._finalized:
                self._join_worker()
            self._started = False
        self._finalized = True
        self._raise_failures()


class ThreadWriter(StandardWriter):
    """Writes each snapshot in a new thread."""

    def create_worker(self, filename, outdir, target, **kwds):
        return threading.Thread(
            target=self._save_in_background,
            args=(filename, outdir, target, self._savefun, kwds),
            name='minichainer-snapshot-writer')


class _FailureChannel:
    """Carries failure reports from writer processes to the training process."""

    def __init__(self):
        self._queue = _mp_context().SimpleQueue()

    def send(self, path, exc):
        self._queue.put(_failure_report(path, exc))

    def receive(self):
        reports = []
        while not self._queue.empty():
            reports.append(self._queue.get())
        return reports


def _report_to_exception(report):
    path, type_name, message, pickled, tb = report
    exc = None
    if pickled is not None:
        try:
            exc = pickle.loads(pickled)
        except Exception:
            exc = None
    if not isinstance(exc, BaseException):
        exc = RuntimeError('{}: {}'.format(type_name, message))
    exc.__cause__ = _RemoteTraceback(tb)
    return path, exc


class _ProcessFailuresMixin:
    """Failure reporting of the writers that save in another process."""

    _channel = None

    def _failure_channel(self):
        if self._channel is None:
            self._channel = _FailureChannel()
        return self._channel

    def _collect_failures(self):
        self._saw_report = False
        if self._channel is None:
            return
        for report in self._channel.receive():
            self._saw_report = True
            self._record_failure(*_report_to_exception(report))


class ProcessWriter(_ProcessFailuresMixin, StandardWriter):
    """Writes each snapshot in a new process (post-save hooks run in that process).

    The process exits by itself if the training process dies while it writes.
    """

    def create_worker(self, filename, outdir, target, **kwds):
        channel = self._failure_channel()
        return _mp_context().Process(
            target=self._save_in_child,
            args=(channel, filename, outdir, target, self._savefun, kwds),
            name='minichainer-snapshot-writer')

    def _save_in_child(self, channel, filename, outdir, target, savefun, kwds):
        _process_guard.exit_with_parent()
        try:
            self.save(filename, outdir, target, savefun, **kwds)
        except Exception as e:
            channel.send(_safe_path(outdir, filename), e)


class QueueWriter(Writer):
    """Base of writers that hand snapshots to one long-lived consumer via a queue.

    A failed write is raised as
    [`SnapshotWriteError`][minichainer.training.extensions.snapshot_writers.SnapshotWriteError] at
    the next call or by `finalize()`.

    Args:
        savefun: Saving function (`save_npz` by default).
        task: Callable `task(filename, outdir, target)` run by the consumer;
            a [`SimpleWriter`][minichainer.training.extensions.snapshot_writers.SimpleWriter] with
            `savefun` by default.
    """

    def __init__(self, savefun=None, task=None):
        super().__init__()
        if task is None:
            task = self.create_task(savefun if savefun is not None else _default_savefun())
        self._task = task
        self._queue = self.create_queue()
        self._consumer = self.create_consumer(self._queue)
        self._consumer.start()
        self._started = True
        self._finalized = False

    def __call__(self, filename, outdir, target):
        self._collect_failures()
        self._raise_failures()
        self._check_consumer()
        self._queue.put([self._task, filename, outdir, target])

    def create_task(self, savefun):
        return SimpleWriter(savefun=savefun)

    def create_queue(self):
        raise NotImplementedError

    def create_consumer(self, q):
        raise NotImplementedError

    def consume(self, q):
        """Run queued tasks until a None arrives; a failing task is reported to the
        training loop and the next ones still run."""
        while True:
            task = q.get()
            if task is None:
                q.task_done()
                return
            try:
                task[0](task[1], task[2], task[3])
            except Exception as e:
                self._report_failure(_safe_path(task[2], task[1]), e)
            finally:
                q.task_done()

    def _report_failure(self, path, exc):
        self._record_failure(path, exc)

    def _collect_failures(self):
        pass

    def _check_consumer(self):
        pass

    def _add_cleanup_hook(self, hook_fun):
        super()._add_cleanup_hook(hook_fun)
        if isinstance(self._task, Writer):
            self._task._add_cleanup_hook(hook_fun)

    def finalize(self):
        """Flush the queue and stop the consumer; raise
        [`SnapshotWriteError`][minichainer.training.extensions.snapshot_writers.SnapshotWriteError]
        if a write failed."""
        if getattr(self, '_started', False):
            if not self._finalized:
                self._queue.put(None)
                self._queue.join()
                self._consumer.join()
            self._started = False
        self._finalized = True
        self._collect_failures()
        self._raise_failures()


class ThreadQueueWriter(QueueWriter):
    """Queue writer whose consumer is a thread."""

    def create_queue(self):
        return queue.Queue()

    def create_consumer(self, q):
        return threading.Thread(target=self.consume, args=(q,),
                                name='minichainer-snapshot-writer')


class ProcessQueueWriter(_ProcessFailuresMixin, QueueWriter):
    """Queue writer whose consumer is a process.

    The task (with its save function and post-save hooks) is sent to the process with
    each snapshot, so it must be picklable; an unpicklable one raises `TypeError` in
    the call instead of being lost.  The consumer exits by itself if the training
    process dies.
    """

    def create_queue(self):
        return _mp_context().JoinableQueue()

    def create_consumer(self, q):
        channel = self._failure_channel()
        return _mp_context().Process(target=self._consume_in_child, args=(channel, q),
                                     name='minichainer-snapshot-writer')

    def _consume_in_child(self, channel, q):
        _process_guard.exit_with_parent()
        self._child_channel = channel
        self.consume(q)

    def _report_failure(self, path, exc):
        channel = getattr(self, '_child_channel', None)
        if channel is None:
            self._record_failure(path, exc)
        else:
            channel.send(path, exc)

    def __call__(self, filename, outdir, target):
        try:
            pickle.dumps(self._task, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:
            raise TypeError(
                'ProcessQueueWriter: the task {!r} cannot be sent to the writer process '
                '(its save function and post-save hooks must be picklable): {}: '
                '{}'.format(self._task, type(e).__name__, e)) from e
        super().__call__(filename, outdir, target)

    def _check_consumer(self):
        code = self._consumer.exitcode
        if code is not None and not self._finalized:
            self._finalized = True
            self._started = False
            raise SnapshotWriteError(
                'ProcessQueueWriter: the writer process {}; snapshots queued since were '
                'not written'.format(_describe_exit(code)))

    def finalize(self):
        """Flush the queue and stop the consumer process; raise
        [`SnapshotWriteError`][minichainer.training.extensions.snapshot_writers.SnapshotWriteError]
        if a write failed or the process died."""
        if getattr(self, '_started', False):
            if not self._finalized:
                self._queue.put(None)
                # Wait for the consumer to drain the queue and exit, reading failure
                # reports meanwhile (a writer blocked on a full report pipe never ends).
                while self._consumer.exitcode is None:
                    self._consumer.join(0.2)
                    self._collect_failures()
                code = self._consumer.exitcode
                if code != 0:
                    self._record_failure(
                        '(queued snapshots)', 'the writer process {} before writing '
                        'every queued snapshot'.format(_describe_exit(code)))
            self._started = False
        self._finalized = True
        self._collect_failures()
        self._raise_failures()
