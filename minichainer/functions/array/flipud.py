"""Up/down flipping (`chainer.functions.flipud`)."""
from minichainer.functions.array.flip import FixedAxisFlip


class FlipUD(FixedAxisFlip):
    """Reverse an array along axis 0."""

    axis = 0


def flipud(a):
    """Reverse `a` along axis 0 (up/down).

    Args:
        a (Variable or numpy.ndarray): Floating-point input, ndim >= 1.

    Returns:
        Variable: The flipped variable.
    """
    return FlipUD().apply((a,))[0]
