"""Range checks of optimizer and hook hyperparameters (this module imports nothing of
the optimizer machinery, so that the hooks can use it; `optimizers._util` re-exports
it)."""
import math
import numbers


def real_value(value):
    """`value` as a float if it is a real number (a Python or NumPy scalar, or a 0-d
    numeric array), else None.  Booleans are not numbers here."""
    if isinstance(value, bool) or type(value).__name__ == 'bool_':
        return None
    if isinstance(value, numbers.Real):
        return float(value)
    dtype = getattr(value, 'dtype', None)
    if dtype is not None and getattr(value, 'shape', None) == () and dtype.kind in 'iuf':
        return float(value)
    return None


class Range:
    """A range of valid values: `text` for messages, `accepts(v)` the full test and
    `lower(v)` its lower bound only (see `optimizers._util.check_hyperparams`)."""

    def __init__(self, text, accepts, lower=None):
        self.text = text
        self.accepts = accepts
        self.lower = accepts if lower is None else lower


NON_NEGATIVE = Range('a non-negative number', lambda v: v >= 0)
POSITIVE = Range('a positive number', lambda v: v > 0)
UNIT_OPEN = Range('a number in [0, 1)', lambda v: 0 <= v < 1, lambda v: v >= 0)
UNIT_CLOSED = Range('a number in [0, 1]', lambda v: 0 <= v <= 1, lambda v: v >= 0)


def check_range(owner, name, value, spec, lower_only=False):
    """Raise unless `value` is a finite real number in the range `spec`:
    `TypeError` for a non-number, `ValueError` for one out of range (with
    `lower_only`, only below it).  The message names `owner`, the argument, what
    was expected and what came."""
    number = real_value(value)
    if number is None:
        raise TypeError('{}: {} must be {}, got {!r} of type {}'.format(
            owner, name, spec.text, value, type(value).__name__))
    test = spec.lower if lower_only else spec.accepts
    if not (math.isfinite(number) and test(number)):
        raise ValueError('{}: {} must be {}, got {!r}'.format(
            owner, name, spec.text, value))


class RateHook:
    """Base of the per-parameter hooks with one non-negative `rate` (`Lasso`,
    `WeightDecay`): called for each parameter, before the update by default.

    Subclasses set `name` (also used in error messages) and define `__call__`.
    """

    name = None
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        check_range(self.name, 'rate', rate, NON_NEGATIVE)
        self.rate = rate
