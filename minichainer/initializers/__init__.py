"""Weight initializers (`chainer.initializers`).

Random initializers draw from numpy's global RNG (or `rng=`) in the same order, with the
same distribution and dtype as Chainer 7, so a seeded model gets identical weights.
"""
import numpy

import minichainer
from minichainer import backend
from minichainer import initializer as initializer_module
from minichainer.initializers.constant import Constant
from minichainer.initializers.constant import Identity  # noqa: F401
from minichainer.initializers.constant import NaN  # noqa: F401
from minichainer.initializers.constant import One  # noqa: F401
from minichainer.initializers.constant import Zero  # noqa: F401
from minichainer.initializers.normal import GlorotNormal  # noqa: F401
from minichainer.initializers.normal import HeNormal  # noqa: F401
from minichainer.initializers.normal import LeCunNormal
from minichainer.initializers.normal import Normal  # noqa: F401
from minichainer.initializers.orthogonal import Orthogonal  # noqa: F401
from minichainer.initializers.sampling import DownsamplingConvFilter  # noqa: F401
from minichainer.initializers.sampling import UpsamplingDeconvFilter  # noqa: F401
from minichainer.initializers.uniform import GlorotUniform  # noqa: F401
from minichainer.initializers.uniform import HeUniform  # noqa: F401
from minichainer.initializers.uniform import LeCunUniform  # noqa: F401
from minichainer.initializers.uniform import Uniform  # noqa: F401


def generate_array(initializer, shape, xp, dtype=None, device=None):
    """Return a new array of `shape` filled by `initializer`.

    The dtype is `dtype`, else `initializer.dtype`, else `config.dtype`.

    Args:
        initializer: A callable that fills an array in place.
        shape (tuple of ints): Shape of the array.
        xp: Array module (`numpy`, or `cupy` for an array on a GPU).
        dtype: Dtype specifier; must agree with `initializer.dtype` when both are set.
        device: Device specifier; when given, its array module is used.

    Raises:
        ValueError: `dtype` and `initializer.dtype` disagree.
    """
    if isinstance(initializer, backend.get_array_types()):
        # A Parameter created from an array keeps it as its initializer; re-initializing
        # it (``copy(mode='init')``) copies the array (Chainer raises TypeError here).
        initializer = Constant(initializer)
    dtype_attr = getattr(initializer, 'dtype', None)
    if dtype is not None and dtype_attr is not None \
            and numpy.dtype(dtype) != numpy.dtype(dtype_attr):
        raise ValueError('generate_array: dtype mismatch: {} != {}'.format(
            numpy.dtype(dtype), numpy.dtype(dtype_attr)))
    if dtype is None:
        dtype = dtype_attr
    dtype = minichainer.get_dtype(dtype)
    if device is not None:
        device = backend.get_device(device)
        if device.xp is not xp:
            raise ValueError('generate_array: xp and device arguments are inconsistent '
                             '({} and {!r})'.format(getattr(xp, '__name__', xp), device))
        if xp is not numpy:  # allocate and draw on that GPU
            with backend.using_device(device):
                array = xp.empty(shape, dtype=dtype)
                initializer(array)
            return array
    array = xp.empty(shape, dtype=dtype)
    initializer(array)
    return array


def get_initializer(initializer):
    """Normalize an initializer spec: None -> LeCunNormal(), scalar/array -> Constant."""
    if initializer is None:
        return LeCunNormal()
    if isinstance(initializer, (str, bytes)):
        raise TypeError('initializer must be None, a number, an ndarray or a callable, '
                        'got the string {!r}'.format(initializer))
    if numpy.isscalar(initializer) or isinstance(initializer, backend.get_array_types()):
        return Constant(initializer)
    if not callable(initializer):
        raise TypeError(
            'initializer must be None, a scalar, an ndarray or a callable, got {}'.format(
                type(initializer).__name__))
    return initializer


_get_initializer = get_initializer  # Chainer's name


def _check_is_initializer_like(initializer):
    """Raise `TypeError` unless `initializer` is None, an Initializer, a callable, an
    ndarray or a scalar (used by the testing helpers)."""
    if not (initializer is None
            or isinstance(initializer, initializer_module.Initializer)
            or callable(initializer)
            or isinstance(initializer, backend.get_array_types())
            or numpy.isscalar(initializer)):
        raise TypeError(
            'Initializer is of wrong type: {}. Allowed types are Initializer, ndarray and '
            'scalar.'.format(type(initializer)))
