"""``log1p``: elementwise ``log(1 + x)``, accurate near zero."""
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise


class Log1p(_elementwise.UnaryFloat):
    """Elementwise ``log(1 + x)``."""

    _label = 'log1p'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fast.as_grad(gy.array / (x.array + x.dtype.type(1))),
        return gy / (x + 1.0),


def log1p(x):
    """Elementwise natural logarithm plus one function."""
    return Log1p().apply((x,))[0]
