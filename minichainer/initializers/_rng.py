"""Shared helpers of the initializers: the ``rng=`` keyword, the random source and the
base of the fan-scaled initializers."""
import math

import numpy

from minichainer import backend
from minichainer import initializer


def parse_rng(kwargs, owner):
    """Pop ``rng`` from ``kwargs``; reject any other keyword."""
    rng = kwargs.pop('rng', None)
    if kwargs:
        raise TypeError('{}() got unexpected keyword argument(s): {}'.format(
            owner, ', '.join(sorted(kwargs))))
    return rng


def random_source(rng, array):
    """The generator to draw from: ``rng`` if given, else the array module's global one."""
    if rng is not None:
        return rng
    xp = backend.get_array_module(array)
    return xp.random if xp is not numpy else numpy.random


class FanScaled(initializer.Initializer):
    """Base of the initializers drawing with a scale of ``scale * sqrt(factor / fan)``.

    A subclass names itself (``_owner``, used in messages), the initializer it draws with
    (``_distribution``: Normal or Uniform, given the scale and ``rng``), ``_factor`` and
    ``_fan``: ``'fan_in'`` or ``'fan_in + fan_out'`` of the array's shape (``get_fans``).
    """

    _owner = None
    _distribution = None
    _factor = 1.
    _fan = 'fan_in'

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng = parse_rng(kwargs, self._owner)
        super().__init__(dtype)

    def _select_fan(self, fan_in, fan_out):
        # (the fan, its name in messages)
        if self._fan == 'fan_in':
            return fan_in, 'fan_in'
        return fan_in + fan_out, 'fan_in + fan_out'

    def __call__(self, array):
        self._check_dtype(array)
        fan, what = self._select_fan(*initializer.get_fans(array.shape))
        initializer.check_fan(self._owner, array.shape, fan, what)
        self._distribution(self.scale * math.sqrt(self._factor / fan), rng=self.rng)(array)
