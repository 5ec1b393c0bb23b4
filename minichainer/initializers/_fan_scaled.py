"""The shared bodies of the random initializers: `Scaled`, the base of `Normal` and
`Uniform` (a `scale`, a dtype and the `rng=` keyword), and `FanScaled`, the one body of
the fan-scaled initializers (`LeCunNormal`, `GlorotNormal`, `HeNormal` in `normal.py`;
`LeCunUniform`, `GlorotUniform`, `HeUniform` in `uniform.py`): each is its distribution
(`Normal` or `Uniform`) with the scale `scale * sqrt(factor / fan)`."""
import math

from minichainer import initializer
from minichainer.initializers._rng import parse_rng


class Scaled(initializer.Initializer):
    """An initializer with a `scale`, a dtype and an optional `rng` (Chainer's
    signature: `(scale, dtype=None, *, rng=None)`; any other keyword is a TypeError)."""

    def __init__(self, scale=0.05, dtype=None, **kwargs):
        self.scale = scale
        self.rng = parse_rng(kwargs, type(self).__name__)
        super().__init__(dtype)


class FanScaled(Scaled):
    """`distribution(scale * sqrt(factor / fan))` of an array, where `fan` is
    `fan_in`, `fan_out` or `fan_in + fan_out` of its shape (`fan_option`).

    Subclasses set `distribution` (`Normal` or `Uniform`), `factor`, and `sums_fans`
    (scale by `fan_in + fan_out`, Glorot's) or `fan_option` (`'fan_in'`, the default, or
    `'fan_out'`; He's initializers take it as an argument). A fan of 0 is a ValueError
    naming the initializer, the shape and the fan (`initializer.check_fan`).
    """

    distribution = None
    factor = None
    sums_fans = False
    fan_option = 'fan_in'

    def __init__(self, scale=1.0, dtype=None, **kwargs):
        super().__init__(scale, dtype, **kwargs)

    def __call__(self, array):
        self._check_dtype(array)
        fan_in, fan_out = initializer.get_fans(array.shape)
        if self.sums_fans:
            fan, what = fan_in + fan_out, 'fan_in + fan_out'
        elif self.fan_option == 'fan_in':
            fan, what = fan_in, 'fan_in'
        elif self.fan_option == 'fan_out':
            fan, what = fan_out, 'fan_out'
        else:
            raise ValueError(
                "{}: fan_option must be 'fan_in' or 'fan_out', got {!r}".format(
                    type(self).__name__, self.fan_option))
        initializer.check_fan(type(self).__name__, array.shape, fan, what)
        self.distribution(self.scale * math.sqrt(self.factor / fan), rng=self.rng)(array)
