"""Order samplers deciding the example order of each epoch (`chainer.iterators`)."""
import numpy


class OrderSampler:
    """Base class of order samplers.

    An iterator calls `sampler(current_order, current_position)` at the start of
    every epoch; it returns the 1-D index order of the next epoch, of the same length.
    """

    def __call__(self, current_order, current_position):
        raise NotImplementedError


class ShuffleOrderSampler(OrderSampler):
    """Order sampler drawing a random permutation for every epoch.

    Args:
        random_state (numpy.random.RandomState): Generator to draw from. None uses
            NumPy's global generator (`numpy.random.permutation`), as Chainer does.
    """

    def __init__(self, random_state=None):
        if random_state is None:
            random_state = numpy.random.random.__self__
        self._random = random_state

    def __call__(self, current_order, current_position):
        return self._random.permutation(len(current_order))
