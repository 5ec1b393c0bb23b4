"""`erfc`: elementwise complementary error function `1 - erf(x)`.

Uses SciPy when it is installed, else a NumPy fallback (minichainer does not
require SciPy; Chainer needs it for some of these on the CPU).
"""
import math

from minichainer.functions.math import _elementwise

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erfc(_elementwise.SpecialUnary):
    """Elementwise complementary error function `1 - erf(x)`."""

    _label = 'erfc'
    _coeff = -_TWO_OVER_SQRT_PI
    _power = -1


def erfc(x):
    """Elementwise complementary error function `1 - erf(x)`.

    Args:
        x (Variable or ndarray): Input variable (float).

    Returns:
        Variable: Output variable.
    """
    return Erfc().apply((x,))[0]
