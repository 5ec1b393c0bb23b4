"""The epoch/position state machine every iterator shares (Chainer's
`iterators/_statemachine.py`): `IteratorState`, `iterator_statemachine`, the argument
checks, `EpochBookkeepingMixin` (Chainer's epoch properties) and `serialize_state`
(Chainer's snapshot keys).

`SerialIterator`, `MultithreadIterator` and `MultiprocessIterator` build on it.
"""
import collections
import numbers

import numpy

from minichainer.iterators import order_samplers

IteratorState = collections.namedtuple(
    'IteratorState', ('current_position', 'epoch', 'is_new_epoch', 'order'))

_intp = numpy.intp


def iterator_statemachine(state, batch_size, repeat, order_sampler, dataset_len):
    """Advance `state` by one batch.

    Returns `(new_state, indices)`; `indices` is None when a non-repeating
    iterator is exhausted. A batch that reaches the end of the epoch wraps around
    into the next one (when repeating), calling `order_sampler` for its order.
    """
    i, epoch, _, order = state

    if not repeat and epoch > 0:
        return state, None

    n = dataset_len if order is None else len(order)
    i_end = i + batch_size
    if not repeat and i_end > n:
        i_end = n
    is_new_epoch = False
    pieces = None

    while i_end >= n:
        piece = numpy.arange(i, n, dtype=_intp) if order is None else order[i:n]
        if pieces is None:
            pieces = [piece]
        else:
            pieces.append(piece)
        if order is not None:
            new_order = order_sampler(order, i)
            if len(new_order) != len(order):
                raise ValueError(
                    'order sampler returned an order of length {} but the previous '
                    'order has length {}'.format(len(new_order), len(order)))
            order = new_order
        i = 0
        i_end = i_end - n if repeat else 0
        epoch += 1
        is_new_epoch = True

    last = numpy.arange(i, i_end, dtype=_intp) if order is None else order[i:i_end]
    if pieces is None:
        indices = last
    else:
        pieces.append(last)
        indices = numpy.concatenate(pieces)
    return IteratorState(i_end, epoch, is_new_epoch, order), indices


def check_arguments(name, dataset, batch_size):
    """Validate the common iterator arguments; return `len(dataset)`."""
    if (isinstance(batch_size, bool) or not isinstance(batch_size, numbers.Integral)
            or batch_size <= 0):
        raise ValueError('{}: batch_size must be a positive int, got {!r}'.format(
            name, batch_size))
    try:
        n = len(dataset)
    except TypeError:
        raise TypeError('{}: dataset must support len(), got {}'.format(
            name, type(dataset).__name__)) from None
    if n == 0:
        raise ValueError('{}: dataset is empty'.format(name))
    return n


def make_order_sampler(name, shuffle, order_sampler):
    """Chainer's rule: `shuffle=None` means shuffle unless a sampler is given."""
    if shuffle is not None:
        if order_sampler is not None:
            raise ValueError(
                '{}: shuffle must be None when an order_sampler is given, got '
                'shuffle={!r}'.format(name, shuffle))
        return order_samplers.ShuffleOrderSampler() if shuffle else None
    if order_sampler is None:
        return order_samplers.ShuffleOrderSampler()
    if not callable(order_sampler):
        raise TypeError('{}: order_sampler must be callable, got {!r}'.format(
            name, order_sampler))
    return order_sampler


def initial_order(order_sampler, n):
    if order_sampler is None:
        return None
    return order_sampler(numpy.arange(n), 0)


def initial_state(order_sampler, n):
    """The state at the start of iteration (drawing the first order, if any)."""
    return IteratorState(0, 0, False, initial_order(order_sampler, n))


class EpochBookkeepingMixin:
    """Chainer's epoch properties for an iterator keeping an `IteratorState`.

    The iterator sets `self._state` (an IteratorState), `self.dataset` and
    `self._previous_epoch_detail` (`-1` while there is no previous batch).
    """

    __slots__ = ()

    def _set_arguments(self, name, dataset, batch_size, repeat, shuffle, order_sampler):
        # Checks and stores the arguments SerialIterator and MultithreadIterator share.
        check_arguments(name, dataset, batch_size)
        self.dataset = dataset
        self.batch_size = batch_size
        self._repeat = repeat
        self._shuffle = shuffle
        self.order_sampler = make_order_sampler(name, shuffle, order_sampler)

    @property
    def current_position(self):
        return self._state.current_position

    @property
    def epoch(self):
        return self._state.epoch

    @property
    def is_new_epoch(self):
        return self._state.is_new_epoch

    @property
    def epoch_detail(self):
        # The definition (SerialIterator.__next__ keeps an inlined copy, tested equal).
        state = self._state
        order = state.order
        return state.epoch + state.current_position / (
            len(self.dataset) if order is None else len(order))

    @property
    def previous_epoch_detail(self):
        if self._previous_epoch_detail < 0:
            return None
        return self._previous_epoch_detail

    def _serialize_epoch_state(self, serializer, order_keys=('order', '_order')):
        # Save or load `_state` and `_previous_epoch_detail` through
        # `serialize_state`; return the new state.
        self._state, self._previous_epoch_detail = serialize_state(
            serializer, self._state, self._previous_epoch_detail, self.batch_size,
            len(self.dataset), order_keys)
        return self._state


def serialize_state(serializer, state, previous_epoch_detail, batch_size, dataset_len,
                    order_keys=('order', '_order')):
    """Serialize an iterator's state with Chainer's keys; return the new
    `(state, previous_epoch_detail)`.

    Keys: `current_position`, `epoch`, `is_new_epoch`, `order` (only when
    there is an order; falls back to `_order` on KeyError) and
    `previous_epoch_detail` (`-1` stands for None; guessed from the position when
    missing, as Chainer does for old snapshots).
    """
    current_position = int(serializer('current_position', state.current_position))
    epoch = int(serializer('epoch', state.epoch))
    is_new_epoch = bool(serializer('is_new_epoch', state.is_new_epoch))
    order = state.order
    if order is not None:
        # A copy: a deserializer fills it in place, never the order in use.
        order = numpy.array(order)
        try:
            loaded = serializer(order_keys[0], order)
        except KeyError:
            if len(order_keys) < 2:
                raise
            loaded = serializer(order_keys[1], order)
        if isinstance(loaded, numpy.ndarray):
            order = loaded
    state = IteratorState(current_position, epoch, is_new_epoch, order)
    try:
        previous_epoch_detail = float(serializer(
            'previous_epoch_detail', previous_epoch_detail))
    except KeyError:
        epoch_size = dataset_len if order is None else len(order)
        guess = epoch + (current_position - batch_size) / epoch_size
        if epoch > 0 or current_position > 0:   # the new state's epoch_detail > 0
            previous_epoch_detail = max(guess, 0.)
        else:
            previous_epoch_detail = -1.
    return state, previous_epoch_detail


def same_state(a, b):
    """True when two IteratorStates are equal (orders compared by value)."""
    if (a.current_position != b.current_position or a.epoch != b.epoch
            or a.is_new_epoch != b.is_new_epoch):
        return False
    if a.order is None or b.order is None:
        return a.order is b.order
    return a.order is b.order or numpy.array_equal(a.order, b.order)
