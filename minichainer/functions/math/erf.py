"""`erf`: elementwise error function `erf(x)`.

Uses SciPy when it is installed, else a NumPy fallback (minichainer does not
require SciPy; Chainer needs it for some of these on the CPU).
"""
import math

from minichainer.functions.math import _elementwise

_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)


class Erf(_elementwise.SpecialUnary):
    """Elementwise error function `erf(x)`."""

    _label = 'erf'
    _coeff = _TWO_OVER_SQRT_PI
    _power = -1


def erf(x):
    """Elementwise error function `erf(x)`.

    Args:
        x (Variable or ndarray): Input variable (float).

    Returns:
        Variable: Output variable.
    """
    return Erf().apply((x,))[0]
