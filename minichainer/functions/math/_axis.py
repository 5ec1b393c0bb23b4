"""Axis-argument normalisation shared by the reductions of this package."""


def normalize_axis(axis, fname):
    """Return `axis` as None or a tuple of ints, as Chainer's reductions accept it.

    Raises:
        ValueError: `axis` contains a duplicate value.
        TypeError: `axis` is neither None, an int nor a tuple of ints.
    """
    if axis is None:
        return None
    if isinstance(axis, int) and not isinstance(axis, bool):
        return (axis,)
    if isinstance(axis, tuple) and all(
            isinstance(a, int) and not isinstance(a, bool) for a in axis):
        if len(set(axis)) != len(axis):
            raise ValueError('duplicate value in axis: ({})'.format(
                ', '.join(map(str, axis))))
        return axis
    raise TypeError('{}: axis must be None, an int or a tuple of ints, got {!r}'
                    .format(fname, axis))


def check_axes(type_check, x_type, axes):
    """Type-check that every axis of `axes` is a valid axis of `x_type`."""
    if axes is None:
        return
    for axis in axes:
        if axis >= 0:
            type_check.expect(axis < x_type.ndim)
        else:
            type_check.expect(-axis - 1 < x_type.ndim)
