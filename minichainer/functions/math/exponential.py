"""Exponential and logarithms: `exp`, `log`, `log2`, `log10`."""
import math

from minichainer.functions.math import _elementwise

_INV_LOG2 = 1.0 / math.log(2.0)
_INV_LOG10 = 1.0 / math.log(10.0)


class Exp(_elementwise.UnaryFloatKeepsOutput):
    """Elementwise exponential."""

    _label = 'exp'

    _gradient = staticmethod(lambda m, y, gy: y * gy)


def exp(x):
    """Elementwise exponential function."""
    return Exp().apply((x,))[0]


class Log(_elementwise.UnaryFloat):
    """Elementwise natural logarithm."""

    _label = 'log'

    _gradient = staticmethod(lambda m, x, gy: gy / x)


def log(x):
    """Elementwise natural logarithm function."""
    return Log().apply((x,))[0]


class Log2(_elementwise.UnaryFloat):
    """Elementwise base-2 logarithm."""

    _label = 'log2'

    _gradient = staticmethod(lambda m, x, gy: gy / x * _INV_LOG2)


def log2(x):
    """Elementwise logarithm to the base 2: `y = log2(x)`."""
    return Log2().apply((x,))[0]


class Log10(_elementwise.UnaryFloat):
    """Elementwise base-10 logarithm."""

    _label = 'log10'

    _gradient = staticmethod(lambda m, x, gy: gy / x * _INV_LOG10)


def log10(x):
    """Elementwise logarithm to the base 10: `y = log10(x)`."""
    return Log10().apply((x,))[0]
