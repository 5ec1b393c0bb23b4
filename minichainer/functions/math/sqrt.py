"""`sqrt` and `rsqrt`."""
from minichainer import backend
from minichainer import utils
from minichainer.functions.math import _elementwise


class Sqrt(_elementwise.UnaryFloatKeepsOutput):
    """Elementwise square root."""

    _label = 'sqrt'

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.sqrt(x, dtype=x.dtype)),

    _gradient = staticmethod(lambda m, y, gy: gy / (y * 2.0))


def sqrt(x):
    """Elementwise square root `y = sqrt(x)` (NaN for negative inputs, as NumPy)."""
    return Sqrt().apply((x,))[0]


def rsqrt(x):
    """Elementwise reciprocal square root `y = 1 / sqrt(x)`."""
    return 1.0 / sqrt(x)
