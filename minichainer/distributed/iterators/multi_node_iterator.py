"""An iterator read on one rank and broadcast to all (`create_multi_node_iterator`)."""
import numpy

_CTRL_FIELDS = 5  # stop, valid data type, paired dataset, new epoch, current position


def _is_valid_type(element):
    """Whether a batch element is one the iterator can broadcast as ChainerMN's does:
    an array-like (anything with a `dtype`) or a pair of them."""
    if isinstance(element, tuple):
        return (len(element) == 2 and hasattr(element[0], 'dtype')
                and hasattr(element[1], 'dtype'))
    return hasattr(element, 'dtype')


def _build_ctrl_msg(stop, is_valid_data_type, is_paired_dataset, is_new_epoch,
                    current_position):
    """ChainerMN's control message: the five fields as a float32 array of shape (5,)."""
    return numpy.array([int(stop), int(is_valid_data_type), int(is_paired_dataset),
                        int(is_new_epoch), int(current_position)], dtype=numpy.float32)


def _parse_ctrl_msg(msg):
    """Inverse of `_build_ctrl_msg`: `(stop, is_valid_data_type,
    is_paired_dataset, is_new_epoch, current_position)` (four bools and an int)."""
    if len(msg) != _CTRL_FIELDS:
        raise ValueError('_parse_ctrl_msg: a control message has {} fields, got {}'
                         .format(_CTRL_FIELDS, len(msg)))
    return (bool(msg[0]), bool(msg[1]), bool(msg[2]), bool(msg[3]), int(msg[4]))


_INVALID_TYPE_MESSAGE = ('Multi node iterator supports ndarray or tuple of scalars as the '
                         'data type of the batch element only.')


# What a slave saves and loads in ``serialize`` (the keys of Chainer's iterators); 'order'
# is optional, as an iterator without shuffling has none.
_SERIALIZED_KEYS = ('current_position', 'epoch', 'is_new_epoch')


class _MultiNodeIterator:
    """Rank `rank_master` reads batches from the wrapped iterator and broadcasts them
    (with the epoch counters) to the other ranks, which must not read themselves.

    The other ranks (slaves) mirror the master's counters and keep the master's first
    order, as ChainerMN's: their `serialize` saves those under the master's keys, and
    what they load cannot change their batches, which always come from the master.
    """

    def __init__(self, actual_iterator, communicator, rank_master):
        self.actual_iterator = actual_iterator
        self.communicator = communicator
        self.rank_master = rank_master
        self._mn_state = None
        if communicator.rank == rank_master:
            order = getattr(getattr(actual_iterator, '_state', None), 'order', None)
            state = self._read_state(), order
        else:
            state = None
        self._mn_state, order = communicator.bcast_obj(state, root=rank_master)
        if communicator.rank != rank_master:
            self._order = order

    def _read_state(self):
        it = self.actual_iterator
        return {k: getattr(it, k, None) for k in (
            'current_position', 'epoch', 'is_new_epoch', 'epoch_detail',
            'previous_epoch_detail', 'batch_size', 'repeat')}

    def __iter__(self):
        return self

    def __next__(self):
        comm = self.communicator
        if comm.rank == self.rank_master:
            try:
                batch = self.actual_iterator.next()
            except StopIteration:
                msg = None
            else:
                if batch and not _is_valid_type(batch[0]):
                    msg = False  # every rank raises, as ChainerMN's does
                else:
                    msg = (batch, self._read_state())
            comm.bcast_obj(msg, root=self.rank_master)
        else:
            msg = comm.bcast_obj(None, root=self.rank_master)
        if msg is None:
            raise StopIteration
        if msg is False:
            raise TypeError(_INVALID_TYPE_MESSAGE)
        batch, self._mn_state = msg
        return batch

    next = __next__

    def __getattr__(self, name):
        state = self.__dict__.get('_mn_state')
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
            return
        state = self._mn_state
        for key in _SERIALIZED_KEYS:
            if state.get(key) is not None:
                state[key] = serializer(key, state[key])
        if self._order is not None:
            try:
                self._order = serializer('order', self._order)
            except KeyError:  # saved by an iterator without an order (no shuffling)
                pass


def create_multi_node_iterator(actual_iterator, communicator, rank_master=0):
    """Wrap an iterator so that only `rank_master` reads it and every rank gets the
    same batches (for model-parallel jobs whose ranks need identical inputs).

    Args:
        actual_iterator: The iterator (used on `rank_master` only).
        communicator: The communicator.
        rank_master (int): The reading rank.
    """
    return _MultiNodeIterator(actual_iterator, communicator, rank_master)
