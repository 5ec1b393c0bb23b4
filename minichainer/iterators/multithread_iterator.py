"""Iterator loading examples with worker threads (`chainer.iterators.MultithreadIterator`)."""
import concurrent.futures

from minichainer.dataset import iterator
from minichainer.iterators import _statemachine


def _read_chunk(dataset, indices):
    return [dataset[i] for i in indices]


class MultithreadIterator(_statemachine.EpochBookkeepingMixin, iterator.Iterator):
    """Dataset iterator that loads the examples of the next batch in worker threads.

    Gives the same batches and epoch bookkeeping as
    [`SerialIterator`][minichainer.iterators.serial_iterator.SerialIterator]; the next batch is
    prefetched while the current one is used. Batches are plain lists.

    `dataset`, `batch_size`, `repeat`, `shuffle` and `order_sampler` are as in
    [`SerialIterator`][minichainer.iterators.serial_iterator.SerialIterator].

    Args:
        n_threads (int): Number of worker threads (default 1).
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 n_threads=1, order_sampler=None):
        self._set_arguments('MultithreadIterator', dataset, batch_size, repeat, shuffle,
                            order_sampler)
        if isinstance(n_threads, bool) or not isinstance(n_threads, int) or n_threads <= 0:
            raise ValueError('MultithreadIterator: n_threads must be a positive int, '
                             'got {!r}'.format(n_threads))
        self.n_threads = n_threads
        self._pool = None
        self.reset()

    def reset(self):
        """Rewind to the beginning (drawing a new order when shuffling)."""
        self._state = _statemachine.initial_state(self.order_sampler, len(self.dataset))
        self._previous_epoch_detail = -1.
        self._next = None
        self._next_state = None

    def finalize(self):
        """Stop the worker threads."""
        pool = self._pool
        self._next = None
        self._pool = None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def __next__(self):
        if self._next is None:
            self._invoke_prefetch()
        batch = self._get()
        self._invoke_prefetch()
        return batch

    next = __next__

    def _invoke_prefetch(self):
        self._next_state, indices = _statemachine.iterator_statemachine(
            self._state, self.batch_size, self._repeat, self.order_sampler,
            len(self.dataset))
        if indices is None:
            self._next = False  # marks "stop"
            return
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(
                self.n_threads, thread_name_prefix='MultithreadIterator')
        n_chunks = min(self.n_threads, len(indices))
        bounds = [len(indices) * k // n_chunks for k in range(n_chunks + 1)]
        self._next = [
            self._pool.submit(_read_chunk, self.dataset, indices[bounds[k]:bounds[k + 1]])
            for k in range(n_chunks)]

    def _get(self):
        self._previous_epoch_detail = self.epoch_detail
        self._state = self._next_state
        futures = self._next
        self._next = None
        if futures is False:
            raise StopIteration
        batch = []
        for future in futures:
            batch.extend(future.result())
        return batch

    @property
    def repeat(self):
        return self._repeat

    def serialize(self, serializer):
        """Save/restore the state with Chainer's keys (the order under `_order`).

        Loading also accepts the `order` key written by the other iterators.
        """
        old = self._state
        if old.order is None:
            # Chainer's MultithreadIterator writes '_order' even when there is no
            # order (as None), and adopts an order found there when loading.
            try:
                loaded = serializer('_order', None)
            except KeyError:
                loaded = None
            if loaded is not None and getattr(loaded, 'ndim', 0) == 1:
                self._state = old._replace(order=loaded)
        state = self._serialize_epoch_state(serializer, order_keys=('_order', 'order'))
        if _statemachine.same_state(state, old):
            self._state = old  # saving: keep the batch already prefetched
        else:
            self._next = None
