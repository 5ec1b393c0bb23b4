"""`erfcinv`: elementwise inverse of the complementary error function.

Uses SciPy when it is installed, else a NumPy fallback (minichainer does not
require SciPy; Chainer needs it for some of these on the CPU).
"""
import math

from minichainer.functions.math import _elementwise

_SQRT_PI_OVER_TWO = math.sqrt(math.pi) / 2.0


class ErfcInv(_elementwise.SpecialUnary):
    """Elementwise inverse of the complementary error function."""

    _label = 'erfcinv'
    _coeff = -_SQRT_PI_OVER_TWO
    _power = 1
    _uses_output = True


def erfcinv(x):
    """Elementwise inverse of the complementary error function.

    Args:
        x (Variable or ndarray): Input variable (float).

    Returns:
        Variable: Output variable.
    """
    return ErfcInv().apply((x,))[0]
