"""`log1p`: elementwise `log(1 + x)`, accurate near zero."""
from minichainer.functions.math import _elementwise


class Log1p(_elementwise.UnaryFloat):
    """Elementwise `log(1 + x)`."""

    _label = 'log1p'

    _gradient = staticmethod(lambda m, x, gy: gy / (x + 1.0))


def log1p(x):
    """Elementwise natural logarithm plus one function."""
    return Log1p().apply((x,))[0]
