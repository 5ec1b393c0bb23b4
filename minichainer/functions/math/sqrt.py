"""``sqrt`` and ``rsqrt``."""
from minichainer import backend
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise


class Sqrt(_elementwise.UnaryFloatKeepsOutput):
    """Elementwise square root."""

    _label = 'sqrt'

    def forward(self, inputs):
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.sqrt(x, dtype=x.dtype)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fast.as_grad(gy.array / (y.array * y.dtype.type(2))),
        return gy / (y * 2.0),


def sqrt(x):
    """Elementwise square root ``y = sqrt(x)`` (NaN for negative inputs, as NumPy)."""
    return Sqrt().apply((x,))[0]


def rsqrt(x):
    """Elementwise reciprocal square root ``y = 1 / sqrt(x)``."""
    return 1.0 / sqrt(x)
