"""Deterministic initializers: Constant, Zero, One, NaN and Identity."""
import numpy

from minichainer import backend
from minichainer import initializer
from minichainer.initializers._rng import assign


class Identity(initializer.Initializer):
    """Fill a square 2-D array with `scale` times the identity matrix.

    Raises:
        ValueError: the array is not a 2-D square matrix.
    """

    def __init__(self, scale=1.0, dtype=None):
        self.scale = scale
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        shape = array.shape
        if len(shape) != 2 or shape[0] != shape[1]:
            raise ValueError(
                'Identity: the array must be a 2-D square matrix, got shape {}'.format(shape))
        array[...] = 0
        backend.get_array_module(array).fill_diagonal(array, self.scale)


class _Constant(initializer.Initializer):

    fill_value = None

    def __init__(self, dtype=None):
        value = self.fill_value
        if not (isinstance(value, backend.get_array_types()) or numpy.isscalar(value)):
            raise ValueError(
                '{}: fill_value must be a scalar or an ndarray, got {}'.format(
                    type(self).__name__, type(value).__name__))
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        assign(array, self.fill_value)


class Constant(_Constant):
    """Fill an array with `fill_value` (a scalar or an array broadcast to the shape)."""

    def __init__(self, fill_value, dtype=None):
        self.fill_value = fill_value
        super().__init__(dtype)


class Zero(_Constant):
    """Fill an array with zeros."""

    fill_value = 0.0


class One(_Constant):
    """Fill an array with ones."""

    fill_value = 1.0


class NaN(_Constant):
    """Fill an array with NaN (marks values that were never set)."""

    fill_value = numpy.nan
