"""Base class of dataset iterators (`chainer.dataset.Iterator`)."""


class Iterator:
    """Base class of all dataset iterators.

    An iterator yields minibatches (lists of examples). Implementations provide
    `batch_size`, `epoch` (completed sweeps), `epoch_detail` (float epoch),
    `previous_epoch_detail` (`epoch_detail` before the last `next()`, None
    before the first) and `is_new_epoch` (True right after the epoch count grew),
    and support `serialize` to suspend/resume.

    Difference from Chainer: leaving a `with` block calls
    [`finalize`][minichainer.dataset.iterator.Iterator.finalize].
    """

    def __iter__(self):
        return self

    def __next__(self):
        """Return the next batch (may raise `StopIteration`)."""
        raise NotImplementedError

    def next(self):
        """Alias of `__next__`."""
        return self.__next__()

    def finalize(self):
        """Release resources held by the iterator (nothing by default)."""
        pass

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()
        return None

    def serialize(self, serializer):
        """Serialize the state that changes during iteration (nothing by default)."""
        pass
