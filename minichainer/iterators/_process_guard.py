"""Parent-death detection for the helper processes minichainer starts.

A worker process (MultiprocessIterator's loaders, ProcessWriter's and
ProcessQueueWriter's savers) calls `exit_with_parent` first thing.  It starts a
daemon thread that exits the process as soon as the process that started it is gone,
whatever the way it went (`kill -9`, `os._exit`, a crash in C code), so no worker
is left behind re-parented to init.

Two portable signals are watched, every `_POLL_INTERVAL` seconds at most:

* `multiprocessing.parent_process().sentinel`, a pipe end that becomes readable when
  the parent exits (all start methods, all platforms);
* `os.getppid()` changing from its value at start (POSIX re-parenting), which also
  covers a pipe end kept open by a sibling forked later.

No `prctl` (Linux only) and no signal handler is involved.
"""
import multiprocessing
import os
import threading
import time

_POLL_INTERVAL = 0.5
# Exit status of a worker that exits because its parent is gone.
EXIT_PARENT_GONE = 3


def _parent_sentinel():
    parent = multiprocessing.parent_process()
    if parent is None:
        return None
    return getattr(parent, 'sentinel', None)


def _watch(initial_ppid, sentinel):
    # Not a cycle: multiprocessing.connection is slow to import and only the watcher
    # thread of a child process needs it.
    from multiprocessing import connection
    while True:
        if sentinel is not None:
            try:
                if connection.wait([sentinel], timeout=_POLL_INTERVAL):
                    break  # the pipe end closed: the parent exited
            except (OSError, ValueError):
                sentinel = None
        else:
            time.sleep(_POLL_INTERVAL)
        if os.getppid() != initial_ppid:
            break
    # The parent cannot read results any more; leave at once, skipping the join of
    # queue feeder threads (which may block on a full pipe nobody reads).
    os._exit(EXIT_PARENT_GONE)


def exit_with_parent():
    """Exit this (child) process within about a second of its parent's death.

    Call it at the start of a process's target function; it returns immediately.
    Calling it in a process that has no multiprocessing parent does nothing.
    """
    sentinel = _parent_sentinel()
    if sentinel is None and multiprocessing.parent_process() is None:
        return
    thread = threading.Thread(target=_watch, args=(os.getppid(), sentinel),
                              name='minichainer-parent-watch', daemon=True)
    thread.start()

