"""Gaussian initializers: Normal, LeCunNormal, GlorotNormal and HeNormal.

As in Chainer, values are drawn in float64 with `numpy.random.normal(loc=0.0, scale=s,
size=shape)` (or `rng.normal`) and cast to the array's dtype, so that a seeded program
gets the same weights as under Chainer 7.
"""
from minichainer.initializers._fan_scaled import FanScaled
from minichainer.initializers._fan_scaled import Scaled
from minichainer.initializers._rng import draw


class Normal(Scaled):
    """Draw each element from N(0, `scale`**2).

    Args:
        scale (float): Standard deviation.
        dtype: Data type specifier.
        rng: A `numpy.random.RandomState`-like generator; if omitted, the global one of the
            array's device (`numpy.random`, or `cupy.random` for a CuPy array).
    """

    def __call__(self, array):
        self._check_dtype(array)
        draw(self.rng, array, self.dtype, 'normal', loc=0.0, scale=self.scale,
             size=array.shape)


class LeCunNormal(FanScaled):
    """Normal with standard deviation `scale * sqrt(1 / fan_in)` (Chainer's default)."""

    distribution = Normal
    factor = 1.


class GlorotNormal(FanScaled):
    """Normal with standard deviation `scale * sqrt(2 / (fan_in + fan_out))`."""

    distribution = Normal
    factor = 2.
    sums_fans = True


class HeNormal(FanScaled):
    """Normal with standard deviation `scale * sqrt(2 / fan)`.

    `fan` is `fan_in` or `fan_out` according to `fan_option`.
    """

    distribution = Normal
    factor = 2.

    def __init__(self, scale=1.0, dtype=None, fan_option='fan_in', **kwargs):
        self.fan_option = fan_option
        super().__init__(scale, dtype, **kwargs)
