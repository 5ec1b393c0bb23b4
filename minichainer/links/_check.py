"""Argument checks shared by the links: clear errors for bad sizes."""
import numbers


def check_size(owner, name, value, allow_none=False):
    """Raise `TypeError`/`ValueError` unless `value` is a non-negative integer
    (or None when `allow_none`); return it."""
    if value is None:
        if allow_none:
            return value
        raise TypeError('{}: {} must be an int, got None'.format(owner, name))
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError('{}: {} must be an int{}, got {!r}'.format(
            owner, name, ' or None' if allow_none else '', value))
    if value < 0:
        raise ValueError('{}: {} must be non-negative, got {}'.format(owner, name, value))
    return value
