"""`minimum`: elementwise minimum of two variables (broadcasting)."""
import operator

from minichainer.functions.math import maximum


class Minimum(maximum.PairwiseSelect):
    """Element-wise minimum of input variables."""

    _label = 'minimum'
    _x1_wins = staticmethod(operator.le)


def minimum(x1, x2):
    """Element-wise minimum of input variables (see
    [`maximum`][minichainer.functions.math.maximum.maximum])."""
    return Minimum().apply((x1, x2))[0]
