"""Shared helpers of the initializers: the `rng=` keyword and the random source."""
import numpy

from minichainer import backend


def parse_rng(kwargs, owner):
    """Pop `rng` from `kwargs`; reject any other keyword."""
    rng = kwargs.pop('rng', None)
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s): {}'.format(
            owner, ', '.join(sorted(kwargs))))
    return rng


def random_source(rng, array):
    """The generator to draw from: `rng` if given, else the array module's global one."""
    if rng is not None:
        return rng
    xp = backend.get_array_module(array)
    return xp.random if xp is not numpy else numpy.random
