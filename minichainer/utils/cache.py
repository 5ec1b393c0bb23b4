"""`chainer.utils.cache`: per-instance caching of computed attributes."""
import functools

from minichainer import configuration


class cached_property:  # noqa: N801 (Chainer's name)
    """Read-only property computed once per instance and per backprop mode.

    The value is cached separately for `chainer.config.enable_backprop` True and
    False, so a value computed without a graph (under `no_backprop_mode`) is not
    reused when a graph is needed. The cache is a dict stored in the instance's
    `__dict__` under the property's name.
    """

    def __init__(self, func):
        functools.update_wrapper(self, func)
        self.func = func

    def __get__(self, obj, cls):
        if obj is None:
            return self
        caches = obj.__dict__.setdefault(self.__name__, {})
        mode = configuration.config.enable_backprop
        if mode in caches:
            return caches[mode]
        value = caches[mode] = self.func(obj)
        return value

    def __set__(self, obj, value):
        # defining __set__ makes this a data descriptor, so the instance dict
        # entry (the cache) never shadows it
        raise AttributeError('attribute {!r} of {} is readonly'.format(
            self.__name__, type(obj).__name__))
