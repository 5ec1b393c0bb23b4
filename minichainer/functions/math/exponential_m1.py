"""`expm1`: elementwise `exp(x) - 1`, accurate near zero."""
from minichainer.functions.math import _elementwise


class Expm1(_elementwise.UnaryFloatKeepsOutput):
    """Elementwise `exp(x) - 1`."""

    _label = 'expm1'

    _gradient = staticmethod(lambda m, y, gy: (y + 1.0) * gy)


def expm1(x):
    """Elementwise exponential minus one function."""
    return Expm1().apply((x,))[0]
