"""Uniform initializers: Uniform, LeCunUniform, GlorotUniform and HeUniform.

Values are drawn in float64 with `numpy.random.uniform(low=-s, high=s, size=shape)` (or
`rng.uniform`) and cast to the array's dtype, as in Chainer 7.
"""
from minichainer.initializers._fan_scaled import FanScaled
from minichainer.initializers._fan_scaled import Scaled
from minichainer.initializers._rng import draw


class Uniform(Scaled):
    """Draw each element from U(-`scale`, `scale`).

    Args:
        scale (float): Half width of the interval.
        dtype: Data type specifier.
        rng: A `numpy.random.RandomState`-like generator; if omitted, the global one of the
            array's device (`numpy.random`, or `cupy.random` for a CuPy array).
    """

    def __call__(self, array):
        self._check_dtype(array)
        draw(self.rng, array, self.dtype, 'uniform', low=-self.scale, high=self.scale,
             size=array.shape)


class LeCunUniform(FanScaled):
    """Uniform on [-s, s] with `s = scale * sqrt(3 / fan_in)`."""

    distribution = Uniform
    factor = 3.


class GlorotUniform(FanScaled):
    """Uniform on [-s, s] with `s = scale * sqrt(6 / (fan_in + fan_out))`."""

    distribution = Uniform
    factor = 6.
    sums_fans = True


class HeUniform(FanScaled):
    """Uniform on [-s, s] with `s = scale * sqrt(6 / fan_in)`."""

    distribution = Uniform
    factor = 6.
