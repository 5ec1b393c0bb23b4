"""Gaussian initializers: Normal, LeCunNormal, GlorotNormal and HeNormal.

As in Chainer, values are drawn in float64 with `numpy.random.normal(loc=0.0, scale=s,
size=shape)` (or `rng.normal`) and cast to the array's dtype, so that a seeded program
gets the same weights as under Chainer 7.
"""
import math

from minichainer import initializer
from minichainer.initializers._rng import draw
from minichainer.initializers._rng import parse_rng


class Normal(initializer.Initializer):
    """Draw each element from N(0, `scale`**2).

    Args:
        scale (float): Standard deviation.
        dtype: Data type specifier.
        rng: A `numpy.random.RandomState`-like generator; if omitted, the global one of the
            array's device (`numpy.random`, or `cupy.random` for a CuPy array).
    """

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        self.rng = parse_rng(kwargs, 'Normal')
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        draw(self.rng, array, self.dtype, 'normal', loc=0.0, scale=self.scale,
             size=array.shape)


class LeCunNormal(initializer.Initializer):
    """Normal with standard deviation `scale * sqrt(1 / fan_in)` (Chainer's default)."""

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng = parse_rng(kwargs, 'LeCunNormal')
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        fan_in, _ = initializer.get_fans(array.shape)
        initializer.check_fan('LeCunNormal', array.shape, fan_in)
        Normal(self.scale * math.sqrt(1. / fan_in), rng=self.rng)(array)


class GlorotNormal(initializer.Initializer):
    """Normal with standard deviation `scale * sqrt(2 / (fan_in + fan_out))`."""

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        self.scale = scale
        self.rng = parse_rng(kwargs, 'GlorotNormal')
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        fan_in, fan_out = initializer.get_fans(array.shape)
        initializer.check_fan('GlorotNormal', array.shape, fan_in + fan_out,
                              'fan_in + fan_out')
        Normal(self.scale * math.sqrt(2. / (fan_in + fan_out)), rng=self.rng)(array)


class HeNormal(initializer.Initializer):
    """Normal with standard deviation `scale * sqrt(2 / fan)`.

    `fan` is `fan_in` or `fan_out` according to `fan_option`.
    """

    def __init__(self, scale=1.0, dtype=None, fan_option='fan_in', **kwargs):
        self.scale = scale
        self.fan_option = fan_option
        self.rng = parse_rng(kwargs, 'HeNormal')
        super().__init__(dtype)

    def __call__(self, array):
        self._check_dtype(array)
        fan_in, fan_out = initializer.get_fans(array.shape)
        if self.fan_option == 'fan_in':
            fan = fan_in
        elif self.fan_option == 'fan_out':
            fan = fan_out
        else:
            raise ValueError(
                "HeNormal: fan_option must be 'fan_in' or 'fan_out', got {!r}".format(
                    self.fan_option))
        initializer.check_fan('HeNormal', array.shape, fan, self.fan_option)
        Normal(self.scale * math.sqrt(2. / fan), rng=self.rng)(array)
