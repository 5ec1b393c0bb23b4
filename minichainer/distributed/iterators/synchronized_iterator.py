"""Iterators that draw the same order on every rank (`create_synchronized_iterator`)."""
import numpy

from minichainer.iterators import order_samplers


def create_synchronized_iterator(actual_iterator, communicator):
    """Make `actual_iterator` shuffle identically on every rank.

    Rank 0 draws a seed from NumPy's global generator and broadcasts it; every rank's
    iterator then takes its order from `numpy.random.RandomState(seed)`. The iterator
    must accept an `order_sampler` (SerialIterator and the other built-in iterators).

    Returns:
        The same iterator, reset.
    """
    if not hasattr(actual_iterator, 'order_sampler'):
        raise TypeError('create_synchronized_iterator: the iterator must have an '
                        'order_sampler, got {}'.format(type(actual_iterator).__name__))
    seed = None
    if communicator.rank == 0:
        seed = int(numpy.random.randint(0, 2 ** 31 - 1))
    seed = communicator.bcast_obj(seed)
    actual_iterator.order_sampler = order_samplers.ShuffleOrderSampler(
        numpy.random.RandomState(seed))
    actual_iterator.reset()
    return actual_iterator
