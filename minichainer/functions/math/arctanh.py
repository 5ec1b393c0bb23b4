"""`arctanh`: elementwise inverse hyperbolic tangent."""
from minichainer import backend
from minichainer import utils
from minichainer.functions.math import _elementwise


class Arctanh(_elementwise.UnaryFloat):
    """Elementwise inverse hyperbolic tangent."""

    _label = 'arctanh'

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.arctanh(x), dtype=x.dtype),

    _gradient = staticmethod(lambda m, x, gy: gy / (1 - x * x))


def arctanh(x):
    """Elementwise inverse hyperbolic tangent function `y = arctanh(x)`."""
    return Arctanh().apply((x,))[0]
