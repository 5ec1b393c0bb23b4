"""``expm1``: elementwise ``exp(x) - 1``, accurate near zero."""
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise


class Expm1(_elementwise.UnaryFloatKeepsOutput):
    """Elementwise ``exp(x) - 1``."""

    _label = 'expm1'

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx = y.array + y.dtype.type(1)   # not ``+ 1``: a 0-d y would widen on NumPy 1.26
            gx = gx * gy.array
            return _fast.as_grad(gx),
        return (y + 1.0) * gy,


def expm1(x):
    """Elementwise exponential minus one function."""
    return Expm1().apply((x,))[0]
