"""`ndtr`: elementwise standard normal CDF `ndtr(x)`.

Uses SciPy when it is installed, else a NumPy fallback (minichainer does not
require SciPy; Chainer needs it for some of these on the CPU).
"""
import math

from minichainer.functions.math import _elementwise

_INV_SQRT_2PI = 1.0 / math.sqrt(2.0 * math.pi)


class Ndtr(_elementwise.SpecialUnary):
    """Elementwise standard normal CDF `ndtr(x)`."""

    _label = 'ndtr'
    _coeff = _INV_SQRT_2PI
    _power = -0.5


def ndtr(x):
    """Elementwise standard normal CDF `ndtr(x)`.

    Args:
        x (Variable or ndarray): Input variable (float).

    Returns:
        Variable: Output variable.
    """
    return Ndtr().apply((x,))[0]
