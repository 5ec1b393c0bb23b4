"""Iterator loading examples in worker processes (`chainer.iterators.MultiprocessIterator`)."""
import collections
import multiprocessing
import pickle
import queue
import signal
import sys
import threading
import time
import traceback
import warnings
import weakref

from minichainer.dataset import iterator
from minichainer.iterators import _process_guard
from minichainer.iterators import _statemachine

_RESPONSE_TIME = 0.1


def _warn_stalled(timeout):
    # Chainer's message starts the same way, so filters matching it keep working.
    warnings.warn(
        'Stalled dataset is detected: MultiprocessIterator has waited more than {} seconds '
        '(dataset_timeout) for a batch. Common causes are a dataset that blocks or '
        'deadlocks in a worker process (e.g. a lock or a thread pool inherited through '
        'fork), or one that is simply slower than dataset_timeout.'.format(timeout),
        MultiprocessIterator.TimeoutWarning)


class _RemoteTraceback(Exception):
    """Carries the traceback text of an exception raised in a worker process."""

    def __init__(self, tb):
        super().__init__(tb)
        self.tb = tb

    def __str__(self):
        return '\n\nTraceback in the worker process:\n' + self.tb


def _worker_main(dataset, task_queue, result_queue, maxtasks, worker_id):
    # Ctrl-C is handled by the main process, which then terminates the workers; a
    # main process that dies without doing so (kill -9) is noticed by the watchdog.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _process_guard.exit_with_parent()
    done = 0
    while maxtasks is None or done < maxtasks:
        task = task_queue.get()
        if task is None:
            return
        key, indices = task
        try:
            payload = pickle.dumps([dataset[i] for i in indices],
                                   protocol=pickle.HIGHEST_PROTOCOL)
            ok = True
        except BaseException as e:  # reported to the main process, never lost
            tb = traceback.format_exc()
            try:
                pickled = pickle.dumps(e, protocol=pickle.HIGHEST_PROTOCOL)
                pickle.loads(pickled)
            except Exception:
                pickled = pickle.dumps(RuntimeError('{}: {}'.format(type(e).__name__, e)))
            payload = (pickled, tb)
            ok = False
        result_queue.put(('batch', key, ok, payload))
        done += 1
    result_queue.put(('retire', worker_id))


class _WorkerPool:
    """A set of daemonic worker processes fed through one task and one result queue."""

    def __init__(self, dataset, n_processes, maxtasksperchild):
        self._ctx = multiprocessing.get_context()
        self._dataset = dataset
        self._maxtasks = maxtasksperchild
        self.task_queue = self._ctx.Queue()
        self.task_queue.cancel_join_thread()
        self.result_queue = self._ctx.Queue()
        self.workers = {}
        self._next_id = 0
        self.closed = False
        for _ in range(n_processes):
            self._spawn()

    def _spawn(self):
        worker_id = self._next_id
        self._next_id += 1
        process = self._ctx.Process(
            target=_worker_main,
            args=(self._dataset, self.task_queue, self.result_queue, self._maxtasks,
                  worker_id),
            name='MultiprocessIterator-worker-{}'.format(worker_id), daemon=True)
        process.start()
        self.workers[worker_id] = process

    def retire(self, worker_id):
        process = self.workers.pop(worker_id, None)
        if process is not None:
            process.join(5)
        if not self.closed:
            self._spawn()

    def check_alive(self):
        for process in self.workers.values():
            code = process.exitcode
            if code is not None and code != 0:
                if code < 0:
                    try:
                        how = 'was killed by signal {}'.format(signal.Signals(-code).name)
                    except ValueError:
                        how = 'was killed by signal {}'.format(-code)
                else:
                    how = 'exited with code {}'.format(code)
                raise RuntimeError(
                    'MultiprocessIterator: worker process {} (pid {}) {} while loading '
                    'a batch'.format(process.name, process.pid, how))

    def close(self):
        if self.closed:
            return
        self.closed = True
        workers = list(self.workers.values())
        self.workers = {}
        for process in workers:
            if process.is_alive():
                process.terminate()
        for process in workers:
            process.join(2)
            if process.is_alive():
                process.kill()
                process.join(2)
        for q in (self.task_queue, self.result_queue):
            q.cancel_join_thread()
            q.close()


class _Pending:
    __slots__ = ('seq', 'state', 'n_chunks', 'chunks')

    def __init__(self, seq, state, n_chunks):
        self.seq = seq
        self.state = state
        self.n_chunks = n_chunks
        self.chunks = {}


class MultiprocessIterator(_statemachine.EpochBookkeepingMixin, iterator.Iterator):
    """Dataset iterator that loads examples in worker processes.

    Gives the same batches and epoch bookkeeping as
    [`SerialIterator`][minichainer.iterators.serial_iterator.SerialIterator] for the same order; the
    next `n_prefetch` batches (and the indices of one more) are loaded in the background.
    As in Chainer, with `shared_mem=None` the first batch is loaded in this process,
    and the workers are started after it with the platform's default
    `multiprocessing` start method (with spawn/forkserver the dataset must be
    picklable), so seeded runs draw random numbers in Chainer's order.

    An exception raised by the dataset in a worker is re-raised in the main process
    (its `__cause__` holds the worker's traceback); a worker that dies raises
    `RuntimeError` at the next `next()` instead of hanging. `finalize()`, garbage
    collection and interpreter exit terminate the workers, and a worker exits by
    itself within about a second when the main process dies without cleanup
    (`kill -9`). The iterator can be pickled (as in Chainer): the copy keeps the
    dataset, the arguments and the position, and starts its own workers.

    Args:
        dataset: Dataset to iterate.
        batch_size (int): Number of examples per batch.
        repeat (bool): Loop forever (True) or stop after one epoch.
        shuffle (bool): Shuffle every epoch; None means True unless
            `order_sampler` is given.
        n_processes (int): Number of worker processes (default: the CPU count).
        n_prefetch (int): Number of batches loaded ahead.
        shared_mem (int): Accepted for compatibility; examples are sent back through
            pipes, so it has no effect (deliberate difference from Chainer).
        order_sampler (callable): Order sampler (only with `shuffle=None`).
        dataset_timeout (float): Seconds after which a
            `MultiprocessIterator.TimeoutWarning` is issued while waiting
            for a batch (the first one too, when it is loaded in this process);
            None disables it.
        maxtasksperchild (int): Tasks a worker performs before being replaced by
            a fresh process; None keeps workers for the iterator's lifetime.
    """

    class TimeoutWarning(RuntimeWarning):
        pass

    _interruption_testing = False  # prints the worker pids on start (for tests)
    _finalized = False
    _pool = None
    _measured = False  # the first batch was loaded in this process (see __next__)

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_processes=None, n_prefetch=1, shared_mem=None,
                 order_sampler=None, dataset_timeout=30.0, maxtasksperchild=None):
        name = 'MultiprocessIterator'
        _statemachine.check_arguments(name, dataset, batch_size)
        if n_processes is not None and (
                isinstance(n_processes, bool) or not isinstance(n_processes, int)
                or n_processes <= 0):
            raise ValueError('{}: n_processes must be a positive int or None, got '
                             '{!r}'.format(name, n_processes))
        if isinstance(n_prefetch, bool) or not isinstance(n_prefetch, int):
            raise ValueError('{}: n_prefetch must be an int, got {!r}'.format(
                name, n_prefetch))
        if maxtasksperchild is not None and (
                isinstance(maxtasksperchild, bool) or not isinstance(maxtasksperchild, int)
                or maxtasksperchild <= 0):
            raise ValueError('{}: maxtasksperchild must be a positive int or None, got '
                             '{!r}'.format(name, maxtasksperchild))
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.shuffle = shuffle
        self.n_processes = n_processes or multiprocessing.cpu_count()
        self.n_prefetch = max(n_prefetch, 1)
        self.shared_mem = shared_mem
        self.dataset_timeout = dataset_timeout
        self._maxtasksperchild = maxtasksperchild
        self.order_sampler = _statemachine.make_order_sampler(name, shuffle, order_sampler)
        self._pending = collections.deque()
        self._seq = 0
        self._pool_finalizer = None
        self.reset()

    # -- state ------------------------------------------------------------------------
    def reset(self):
        """Rewind to the beginning (drawing a new order when shuffling)."""
        if self._finalized:
            raise NotImplementedError(
                'MultiprocessIterator: reset() after finalize() is not supported')
        self._set_state(_statemachine.initial_state(self.order_sampler, len(self.dataset)))
        self._previous_epoch_detail = -1.

    def _set_state(self, state):
        self._state = state
        self._dispatch_state = state
        self._pending.clear()  # results of discarded batches are dropped on arrival

    def serialize(self, serializer):
        """Save/restore the state with Chainer's keys (see SerialIterator)."""
        old = self._state
        state = self._serialize_epoch_state(serializer)
        if _statemachine.same_state(state, old):
            self._state = old  # saving: keep the batches already prefetched
        else:
            self._set_state(state)

    # -- workers ----------------------------------------------------------------------
    def _start(self):
        pool = _WorkerPool(self.dataset, self.n_processes, self._maxtasksperchild)
        self._pool = pool
        self._pool_finalizer = weakref.finalize(self, pool.close)
        if self._interruption_testing:
            print(' '.join(str(p.pid) for p in pool.workers.values()))
            sys.stdout.flush()

    def _stop(self):
        pool = self._pool
        self._pool = None
        if self._pool_finalizer is not None:
            self._pool_finalizer.detach()
            self._pool_finalizer = None
        if pool is not None:
            pool.close()

    def finalize(self):
        """Terminate the worker processes; the iterator cannot be used afterwards."""
        if self._finalized:
            return
        self._finalized = True
        self._stop()
        self._pending.clear()

    def _fill(self):
        pool = self._pool
        chunk_size = max(self.batch_size // self.n_processes // 2, 1)
        # One batch more than n_prefetch is dispatched, as in Chainer, whose prefetch
        # thread computes the next indices while its queue of n_prefetch is full: after
        # batch k is returned the order for batch k + n_prefetch + 1 has been drawn, so a
        # new epoch's permutation comes from the global RNG at the same point as there.
        while len(self._pending) <= self.n_prefetch:
            state, indices = _statemachine.iterator_statemachine(
                self._dispatch_state, self.batch_size, self.repeat, self.order_sampler,
                len(self.dataset))
            self._dispatch_state = state
            seq = self._seq
            self._seq += 1
            if indices is None:
                self._pending.append(_Pending(seq, state, 0))
                return
            indices = indices.tolist()
            chunks = [indices[k:k + chunk_size]
                      for k in range(0, len(indices), chunk_size)]
            for k, chunk in enumerate(chunks):
                pool.task_queue.put(((seq, k), chunk))
            self._pending.append(_Pending(seq, state, len(chunks)))

    def _abandon(self):
        """Forget prefetched batches so that the next call retries from the current state."""
        self._set_state(self._state)

    def _check_workers(self):
        try:
            self._pool.check_alive()
        except RuntimeError:
            self._stop()
            self._abandon()
            raise

    def _wait(self, entry):
        pool = self._pool
        start = time.monotonic()
        warned = False
        by_seq = {p.seq: p for p in self._pending}
        # A worker that died (killed, crashed) is reported even while the others keep
        # up: one non-blocking wait per worker and batch.
        self._check_workers()
        while len(entry.chunks) < entry.n_chunks:
            try:
                message = pool.result_queue.get(timeout=_RESPONSE_TIME)
            except queue.Empty:
                self._check_workers()
                if (self.dataset_timeout is not None and not warned
                        and time.monotonic() - start > self.dataset_timeout):
                    warned = True
                    _warn_stalled(self.dataset_timeout)
                continue
            if message[0] == 'retire':
                pool.retire(message[1])
                continue
            _, (seq, k), ok, payload = message
            target = by_seq.get(seq)
            if target is None:
                continue  # a batch discarded by reset()/serialize()
            if not ok:
                pickled, tb = payload
                error = pickle.loads(pickled)
                self._abandon()
                raise error from _RemoteTraceback(tb)
            target.chunks[k] = payload

    def __next__(self):
        if self._finalized:
            raise RuntimeError('MultiprocessIterator: next() called after finalize()')
        if self._pool is None:
            if self.shared_mem is None and not self._measured:
                self._measured = True
                return self._first_batch_in_process()
            self._start()
        self._fill()
        entry = self._pending[0]
        if entry.n_chunks:
            self._wait(entry)
        self._pending.popleft()
        self._previous_epoch_detail = self.epoch_detail
        self._state = entry.state
        if entry.n_chunks == 0:
            raise StopIteration
        batch = []
        for k in range(entry.n_chunks):
            batch.extend(pickle.loads(entry.chunks[k]))
        self._fill()
        return batch

    next = __next__

    def _first_batch_in_process(self):
        """The first batch, loaded in this process before the workers are started.

        Chainer does so when `shared_mem` is None (to measure the examples), so the
        examples' random draws come from this process's RNG, and the workers start
        (fork) from its state after them.
        """
        state, indices = _statemachine.iterator_statemachine(
            self._state, self.batch_size, self.repeat, self.order_sampler,
            len(self.dataset))
        batch = None if indices is None else self._load_in_process(indices)
        self._previous_epoch_detail = self.epoch_detail
        self._state = self._dispatch_state = state
        if batch is None:
            raise StopIteration
        self._start()
        self._fill()
        return batch

    def _load_in_process(self, indices):
        """Load the examples here, warning as Chainer does when it takes longer than
        `dataset_timeout` (the loading runs in a helper thread, watched from this one,
        so the warning comes while the dataset is still stalled)."""
        if self.dataset_timeout is None:
            return [self.dataset[i] for i in indices]
        outcome = []

        def load():
            try:
                outcome.append((True, [self.dataset[i] for i in indices]))
            except BaseException as e:  # re-raised in the calling thread
                outcome.append((False, e))

        loader = threading.Thread(target=load, name='MultiprocessIterator-first-batch',
                                  daemon=True)
        loader.start()
        loader.join(self.dataset_timeout)
        if loader.is_alive():
            _warn_stalled(self.dataset_timeout)
            loader.join()
        ok, value = outcome[0]
        if not ok:
            raise value
        return value

    def __copy__(self):
        other = MultiprocessIterator(
            self.dataset, self.batch_size, self.repeat,
            shuffle=None if self.order_sampler is not None else False,
            n_processes=self.n_processes, n_prefetch=self.n_prefetch,
            shared_mem=self.shared_mem, order_sampler=self.order_sampler,
            dataset_timeout=self.dataset_timeout,
            maxtasksperchild=self._maxtasksperchild)
        state = self._state
        if state.order is not None:
            state = state._replace(order=state.order.copy())
        other._set_state(state)
        other._previous_epoch_detail = self._previous_epoch_detail
        return other

    # Pickling (as Chainer): the dataset, the arguments and the position are kept;
    # the worker processes and the prefetched batches are not.  The copy starts its
    # own workers on its first ``next()`` and continues from the same position.
    _UNPICKLED = ('_pool', '_pool_finalizer', '_pending', '_dispatch_state', '_seq',
                  '_measured')

    def __getstate__(self):
        state = self.__dict__.copy()
        for name in self._UNPICKLED:
            state.pop(name, None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._pending = collections.deque()
        self._seq = 0
        self._pool_finalizer = None
        self._dispatch_state = self._state
