"""Flattening an array into one dimension (`chainer.functions.flatten`)."""
from minichainer.functions.array.reshape import reshape


def flatten(x):
    """Flatten `x` into a 1-D variable of `x.size` elements.

    A 0-d input gives a variable of shape `(1,)`.

    Args:
        x (Variable or numpy.ndarray): Input variable.

    Returns:
        Variable: The flattened variable.
    """
    return reshape(x, (x.size,))
