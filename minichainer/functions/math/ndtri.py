"""`ndtri`: elementwise inverse of the standard normal CDF.

Uses SciPy when it is installed, else a NumPy fallback (minichainer does not
require SciPy; Chainer needs it for some of these on the CPU).
"""
import math

from minichainer.functions.math import _elementwise

_SQRT_2PI = math.sqrt(2.0 * math.pi)


class Ndtri(_elementwise.SpecialUnary):
    """Elementwise inverse of the standard normal CDF."""

    _label = 'ndtri'
    _coeff = _SQRT_2PI
    _power = 0.5
    _uses_output = True


def ndtri(x):
    """Elementwise inverse of the standard normal CDF.

    Args:
        x (Variable or ndarray): Input variable (float).

    Returns:
        Variable: Output variable.
    """
    return Ndtri().apply((x,))[0]
