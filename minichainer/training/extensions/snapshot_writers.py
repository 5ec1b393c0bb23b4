"""Snapshot writers: how (synchronously, in a thread, in a process, through a queue)
the snapshot extension writes its files.

Every writer writes to a temporary file in the output directory (a hidden name ending
in ``.tmp``) and renames it into place with ``os.replace``, so a snapshot file is always
complete; post-save hooks (used by ``n_retains`` cleanup) run after the rename.
"""
import multiprocessing
import os
import queue
import threading

from minichainer.training.extensions import _util


def _default_savefun():
    from minichainer.serializers import npz
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


def _is_temp_name(name):
    return name.startswith('.') and name.endswith('.tmp')


class Writer:
    """Base class of snapshot writers.

    Subclasses implement ``__call__(filename, outdir, target)``, typically by calling
    :meth:`save` now or later.
    """

    def __init__(self):
        self._post_save_hooks = []

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
        """Write ``target`` with ``savefun(path, target, **kwds)`` to
        ``outdir/filename`` atomically, then run the post-save hooks."""
        def write(fd, tmppath):
            os.close(fd)
            savefun(tmppath, target, **kwds)

        _util.write_atomically(outdir, filename, write)
        self._post_save()

    def _post_save(self):
        for hook in getattr(self, '_post_save_hooks', ()):
            hook()

    def _add_cleanup_hook(self, hook_fun):
        """Register ``hook_fun()`` to run after each completed save."""
        if not hasattr(self, '_post_save_hooks'):
            self._post_save_hooks = []
        self._post_save_hooks.append(hook_fun)


class SimpleWriter(Writer):
    """Writes the snapshot synchronously in the main process.

    Args:
        savefun: ``savefun(path, target, **kwds)``; ``save_npz`` by default.
        kwds: Extra keyword arguments for ``savefun``.
    """

    def __init__(self, savefun=None, **kwds):
        super().__init__()
        self._savefun = savefun if savefun is not None else _default_savefun()
        self._kwds = kwds

    def __call__(self, filename, outdir, target):
        self.save(filename, outdir, target, self._savefun, **self._kwds)


class StandardWriter(Writer):
    """Base of writers that save in a worker (thread or process) per snapshot; a new
    snapshot first waits for the previous worker."""

    def __init__(self, savefun=None, **kwds):
        super().__init__()
        self._savefun = savefun if savefun is not None else _default_savefun()
        self._kwds = kwds
        self._worker = None
        self._started = False
        self._finalized = False

    def __call__(self, filename, outdir, target):
        if self._started:
            self._worker.join()
            self._started = False
        self._filename = filename
        self._worker = self.create_worker(filename, outdir, target, **self._kwds)
        self._worker.start()
        self._started = True

    def create_worker(self, filename, outdir, target, **kwds):
        """Return an unstarted worker (with ``start``/``join``) that saves."""
        raise NotImplementedError

    def finalize(self):
        """Wait for the running worker."""
        if getattr(self, '_started', False):
            if not self._finalized:
                self._worker.join()
            self._started = False
        self._finalized = True


class ThreadWriter(StandardWriter):
    """Writes each snapshot in a new thread."""

    def create_worker(self, filename, outdir, target, **kwds):
        return threading.Thread(target=self.save,
                                args=(filename, outdir, target, self._savefun),
                                kwargs=kwds)


class ProcessWriter(StandardWriter):
    """Writes each snapshot in a new process (post-save hooks run in that process)."""

    def create_worker(self, filename, outdir, target, **kwds):
        return _mp_context().Process(
            target=self.save, args=(filename, outdir, target, self._savefun),
            kwargs=kwds)


class QueueWriter(Writer):
    """Base of writers that hand snapshots to one long-lived consumer via a queue.

    Args:
        savefun: Saving function (``save_npz`` by default).
        task: Callable ``task(filename, outdir, target)`` run by the consumer;
            a :class:`SimpleWriter` with ``savefun`` by default.
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
        self._queue.put([self._task, filename, outdir, target])

    def create_task(self, savefun):
        return SimpleWriter(savefun=savefun)

    def create_queue(self):
        raise NotImplementedError

    def create_consumer(self, q):
        raise NotImplementedError

    def consume(self, q):
        """Run queued tasks until a None arrives."""
        while True:
            task = q.get()
            if task is None:
                q.task_done()
                return
            try:
                task[0](task[1], task[2], task[3])
            finally:
                q.task_done()

    def _add_cleanup_hook(self, hook_fun):
        super()._add_cleanup_hook(hook_fun)
        if isinstance(self._task, Writer):
            self._task._add_cleanup_hook(hook_fun)

    def finalize(self):
        """Flush the queue and stop the consumer."""
        if getattr(self, '_started', False):
            if not self._finalized:
                self._queue.put(None)
                self._queue.join()
                self._consumer.join()
            self._started = False
        self._finalized = True


class ThreadQueueWriter(QueueWriter):
    """Queue writer whose consumer is a thread."""

    def create_queue(self):
        return queue.Queue()

    def create_consumer(self, q):
        return threading.Thread(target=self.consume, args=(q,))


class ProcessQueueWriter(QueueWriter):
    """Queue writer whose consumer is a process."""

    def create_queue(self):
        return _mp_context().JoinableQueue()

    def create_consumer(self, q):
        return _mp_context().Process(target=self.consume, args=(q,))
