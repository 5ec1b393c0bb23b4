"""Hyperbolic functions `sinh` and `cosh`."""
from minichainer.functions.math import _elementwise


class Cosh(_elementwise.UnaryFloat):
    """Elementwise hyperbolic cosine."""

    _label = 'cosh'
    _gradient = staticmethod(lambda m, x, gy: m.sinh(x) * gy)


def cosh(x):
    """Elementwise hyperbolic cosine function `y = cosh(x)`."""
    return Cosh().apply((x,))[0]


class Sinh(_elementwise.UnaryFloat):
    """Elementwise hyperbolic sine."""

    _label = 'sinh'
    _gradient = staticmethod(lambda m, x, gy: m.cosh(x) * gy)


def sinh(x):
    """Elementwise hyperbolic sine function `y = sinh(x)`."""
    return Sinh().apply((x,))[0]
