"""Left/right flipping (`chainer.functions.fliplr`)."""
from minichainer.functions.array.flip import FixedAxisFlip


class FlipLR(FixedAxisFlip):
    """Reverse an array along axis 1."""

    axis = 1


def fliplr(a):
    """Reverse `a` along axis 1 (left/right).

    Args:
        a (Variable or numpy.ndarray): Floating-point input, ndim >= 2.

    Returns:
        Variable: The flipped variable.
    """
    return FlipLR().apply((a,))[0]
