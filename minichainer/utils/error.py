"""Helpers for error messages."""


def _format_array_props(arrays):
    """`'(2, 3):float32, None, ...'`: shapes and dtypes of arrays for a message."""
    if not isinstance(arrays, (list, tuple)):
        raise TypeError('_format_array_props: arrays must be a list or tuple, got '
                        '{}'.format(type(arrays).__name__))
    return ', '.join('None' if a is None else '{}:{}'.format(a.shape, a.dtype.name)
                     for a in arrays)
