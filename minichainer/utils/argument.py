"""Keyword-argument helpers (`chainer.utils.argument`)."""
import inspect


def check_unexpected_kwargs(kwargs, **unexpected):
    """Raise `ValueError` with the given message for each removed keyword present."""
    for key, message in unexpected.items():
        if key in kwargs:
            raise ValueError(message)


def parse_kwargs(kwargs, *name_and_values, **unexpected):
    """Pop the named keywords (with defaults) from `kwargs`; reject any other.

    Returns a tuple of the values in the order given. A leftover keyword raises
    `TypeError` naming the caller and the argument, as Python does.
    """
    values = [kwargs.pop(name, default) for name, default in name_and_values]
    if kwargs:
        check_unexpected_kwargs(kwargs, **unexpected)
        caller = inspect.stack()[1]
        names = ', '.join("'{}'".format(k) for k in sorted(kwargs))
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            caller[3], names))
    return tuple(values)


def assert_kwargs_empty(kwargs):
    parse_kwargs(kwargs)
