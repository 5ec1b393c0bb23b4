"""Array helpers (`chainer.utils.array`)."""
from minichainer import backend


def as_vec(x):
    """View `x` as a 1-D array (a Variable is reshaped differentiably)."""
    if x.ndim == 1:
        return x
    return x.ravel() if not hasattr(x, 'creator') else x.reshape(x.size)


def as_mat(x):
    """View `x` as a 2-D array `(x.shape[0], -1)`."""
    if x.ndim == 2:
        return x
    return x.reshape(len(x), -1)


def empty_like(x):
    xp = backend.get_array_module(x)
    return xp.empty_like(x)


def sum_to(x, shape):
    """Sum the array `x` down to `shape` (inverse of broadcasting)."""
    shape = tuple(shape)
    if x.shape == shape:
        return x
    lead = x.ndim - len(shape)
    axes = tuple(range(lead)) + tuple(
        i + lead for i, n in enumerate(shape) if n == 1 and x.shape[i + lead] != 1)
    y = x.sum(axis=axes, keepdims=True)
    if lead:
        y = y.reshape(shape)
    return y


def size_of_shape(shape):
    """Number of elements of an array of `shape` (a Python int; 1 for `()`)."""
    size = 1
    for n in shape:
        size *= int(n)
    return size
