"""Maxout (`chainer.functions.maxout`)."""
from minichainer.functions.array import reshape
from minichainer.functions.math import minmax
from minichainer.utils import type_check


def maxout(x, pool_size, axis=1):
    """Maxout: the maximum over groups of `pool_size` consecutive units along `axis`.

    Args:
        x (Variable or ndarray): Input array; `x.shape[axis]` must be a
            multiple of `pool_size`.
        pool_size (int): Group size (> 0).
        axis (int): The axis to pool over. Negative values count from the end (Chainer
            builds a wrong shape for them).

    Returns:
        Variable: Output with `shape[axis] == x.shape[axis] // pool_size`.

    Raises:
        ValueError: `pool_size` is not positive.
        InvalidType: `x.shape[axis]` is not divisible.
    """
    if pool_size <= 0:
        raise ValueError('maxout: pool_size must be a positive integer, got {}'.format(pool_size))
    x_shape = x.shape
    axis = axis % len(x_shape)  # Chainer mis-shapes negative axes; normalise them
    if x_shape[axis] % pool_size != 0:
        raise type_check.InvalidType(
            'x.shape[axis] % pool_size == 0',
            'x.shape[axis]={}, pool_size={}'.format(x_shape[axis], pool_size),
            'axis dimension must be divided by pool_size')
    shape = (x_shape[:axis] + (x_shape[axis] // pool_size, pool_size)
             + x_shape[axis + 1:])
    x = reshape.reshape(x, shape)
    return minmax.max(x, axis=axis + 1)
