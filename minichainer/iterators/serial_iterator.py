"""SerialIterator (`chainer.iterators.SerialIterator`): batches read serially, in index
or shuffled order, through the shared state machine of
`minichainer.iterators._statemachine`.
"""
from minichainer.dataset import iterator
from minichainer.dataset.example_batch import gather_batch
from minichainer.iterators import _statemachine
from minichainer.iterators._statemachine import iterator_statemachine


class SerialIterator(_statemachine.EpochBookkeepingMixin, iterator.Iterator):
    """Dataset iterator reading the examples serially, in index or shuffled order.

    Args:
        dataset: Dataset to iterate (anything with `len` and `[int]`).
        batch_size (int): Number of examples per batch.
        repeat (bool): Loop over the dataset forever (True) or stop after one epoch.
        shuffle (bool): Shuffle the order every epoch. None (default) means True
            unless `order_sampler` is given. Shuffling draws
            `numpy.random.permutation` from NumPy's global generator.
        order_sampler (callable): `sampler(current_order, current_position)`
            returning the next epoch's order; only with `shuffle=None`.

    Batches behave as lists of examples; with `repeat` a batch crossing the end of
    an epoch is completed from the next (re-shuffled) epoch. Snapshots store `-1`
    for a None `previous_epoch_detail`.

    Raises:
        ValueError: `batch_size` is not a positive int, the dataset is empty, or
            both `shuffle` and `order_sampler` are given.
    """

    def __init__(self, dataset, batch_size, repeat=True, shuffle=None,
                 order_sampler=None):
        self._set_arguments('SerialIterator', dataset, batch_size, repeat, shuffle,
                            order_sampler)
        self.reset()

    def __next__(self):
        state = self._state
        n = len(self.dataset)
        # epoch_detail's formula, inlined on the hot path (a property call costs 0.7% of
        # a batch); tests/iterators/test_statemachine.py proves the two equal.
        order = state.order
        self._previous_epoch_detail = state.epoch + state.current_position / (
            n if order is None else len(order))
        self._state, indices = iterator_statemachine(
            state, self.batch_size, self._repeat, self.order_sampler, n)
        if indices is None:
            raise StopIteration
        return gather_batch(self.dataset, indices)

    next = __next__

    @property
    def repeat(self):
        return self._repeat

    def serialize(self, serializer):
        """Save/restore position, epoch, is_new_epoch, order and previous_epoch_detail."""
        self._serialize_epoch_state(serializer)

    def reset(self):
        """Rewind to the beginning (drawing a new order when shuffling)."""
        self._state = _statemachine.initial_state(self.order_sampler, len(self.dataset))
        self._previous_epoch_detail = -1.
