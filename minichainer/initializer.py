"""The `Initializer` base class and `get_fans` (`chainer.initializer`)."""
import numpy


class _DtypeMismatchError(ValueError, AssertionError):
    """Raised when an initializer with a fixed dtype is given an array of another dtype.

    It is also an `AssertionError` because Chainer signals this with `assert`.
    """


class Initializer:
    """Base class of initializers: a callable that fills an array in place.

    Args:
        dtype: The dtype the initialized arrays must have, or `None` for any.
    """

    def __init__(self, dtype=None):
        self.dtype = dtype

    def __call__(self, array):
        """Fill `array` in place. Subclasses implement this."""
        raise NotImplementedError(
            '{}.__call__ is not implemented'.format(type(self).__name__))

    def _check_dtype(self, array):
        dtype = self.dtype
        if dtype is not None and array.dtype != dtype:
            raise _DtypeMismatchError(
                '{}: array dtype must be {}, got {}'.format(
                    type(self).__name__, _dtype_name(dtype), array.dtype))


def _dtype_name(dtype):
    try:
        return numpy.dtype(dtype).name
    except TypeError:
        return str(dtype)


def get_fans(shape):
    """Return `(fan_in, fan_out)` of a weight of the given shape.

    `fan_in = shape[1] * prod(shape[2:])` and `fan_out = shape[0] * prod(shape[2:])`.

    Raises:
        ValueError: `shape` is not a tuple or has fewer than two dimensions.
    """
    if not isinstance(shape, tuple):
        raise ValueError(
            'get_fans: shape must be a tuple, got {}'.format(type(shape).__name__))
    if len(shape) < 2:
        raise ValueError(
            'get_fans: shape must have at least 2 dimensions, got {}'.format(shape))
    receptive = 1
    for n in shape[2:]:
        receptive *= n
    return shape[1] * receptive, shape[0] * receptive


def check_fan(owner, shape, fan, what='fan_in'):
    """Return `fan`, raising `ValueError` if it is 0.

    Initializers that scale by `1 / fan` call it so that a weight with a zero-sized
    dimension (`L.Linear(0, 3)`, a convolution with `ksize=0`) is reported with its
    shape instead of ending in `ZeroDivisionError`.
    """
    if fan == 0:
        raise ValueError(
            '{}: cannot initialize an array of shape {}: its {} is 0 (a zero-sized '
            'dimension, e.g. in_size=0 or ksize=0 given to the link that owns it)'.format(
                owner, tuple(shape), what))
    return fan
