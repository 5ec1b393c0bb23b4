"""Random matrices with prescribed singular values (`chainer.testing.matrix`)."""
import numpy

from minichainer.utils import argument


def generate_matrix(shape, dtype=float, **kwargs):
    """generate_matrix(shape, dtype=float, *, singular_values)

    Return a random matrix (or stack of matrices) of `shape` `(B..., M, N)` whose
    singular values are `singular_values` (broadcastable to `(B..., min(M, N))`).
    Draws `numpy.random.randn(*shape)` (twice for complex dtypes), as Chainer.
    """
    singular_values, = argument.parse_kwargs(kwargs, ('singular_values', None))
    if len(shape) <= 1:
        raise ValueError('shape {} is invalid for matrices: too few axes'.format(shape))
    dtype = numpy.dtype(dtype)
    if dtype.kind not in 'fc':
        raise TypeError('dtype {} is not supported'.format(dtype))
    if singular_values is None:
        raise TypeError('singular_values is not given')
    singular_values = numpy.asarray(singular_values)
    if not numpy.isrealobj(singular_values):
        raise TypeError('singular_values is not real')
    if (singular_values < 0).any():
        raise ValueError('negative singular value is given')
    k_shape = tuple(shape[:-2]) + (min(shape[-2:]),)
    if 0 in shape:
        # Nothing to draw; still reject singular values of the wrong shape.
        _broadcast_to(singular_values, k_shape)
        return numpy.empty(shape, dtype=dtype)
    a = numpy.random.randn(*shape)
    if dtype.kind == 'c':
        a = a + 1j * numpy.random.randn(*shape)
    u, s, vh = numpy.linalg.svd(a, full_matrices=False)
    sv = _broadcast_to(singular_values, s.shape)
    return numpy.einsum('...ik,...k,...kj->...ij', u, sv, vh).astype(dtype)


def _broadcast_to(array, shape):
    """`numpy.broadcast_to` (`ValueError` when `array` does not broadcast)."""
    return numpy.broadcast_to(array, shape)
