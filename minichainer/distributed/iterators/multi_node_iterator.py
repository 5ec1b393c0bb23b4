"""An iterator read on one rank and broadcast to all (``create_multi_node_iterator``)."""


class _MultiNodeIterator:
    """Rank ``rank_master`` reads batches from the wrapped iterator and broadcasts them
    (with the epoch counters) to the other ranks, which must not read themselves."""

    def __init__(self, actual_iterator, communicator, rank_master):
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master
        self._state = None
        if communicator.rank == rank_master:
            state = self._read_state()
        else:
            state = None
        self._state = communicator.bcast_obj(state, root=rank_master)

    def _read_state(self):
        it = self.actual_iterator
        return {k: getattr(it, k, None) for k in (
            'epoch', 'is_new_epoch', 'epoch_detail', 'previous_epoch_detail',
            'batch_size', 'repeat')}

    def __iter__(self):
        return self

    def __next__(self):
        comm = self.communicator
        if comm.rank == self.rank_master:
            try:
                batch = self.actual_iterator.next()
                msg = (batch, self._read_state())
            except StopIteration:
                msg = None
            comm.bcast_obj(msg, root=self.rank_master)
        else:
            msg = comm.bcast_obj(None, root=self.rank_master)
        if msg is None:
            raise StopIteration
        batch, self._state = msg
        return batch

    next = __next__

    def __getattr__(self, name):
        state = self.__dict__.get('_state')
        if state is not None and name in state:
            return state[name]
        return getattr(self.__dict__['actual_iterator'], name)

    def reset(self):
        if self.communicator.rank == self.rank_master:
            self.actual_iterator.reset()

    def finalize(self):
        if self.communicator.rank == self.rank_master:
            self.actual_iterator.finalize()

    def serialize(self, serializer):
        if self.communicator.rank == self.rank_master:
            self.actual_iterator.serialize(serializer)


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """Wrap an iterator so that only ``rank_master`` reads it and every rank gets the
    same batches (for model-parallel jobs whose ranks need identical inputs).

    Args:
        actual_iterator: The iterator (used on ``rank_master`` only).
        communicator: The communicator.
        rank_master (int): The reading rank.
    """
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
