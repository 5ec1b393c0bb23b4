"""Hyperbolic functions ``sinh`` and ``cosh``."""
from minichainer import backend
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise


class Cosh(_elementwise.UnaryFloat):
    """Elementwise hyperbolic cosine."""

    _label = 'cosh'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx = backend.get_array_module(x.array).sinh(x.array)
            gx *= gy.array
            return _fast.as_grad(utils.force_array(gx)),
        return sinh(x) * gy,


def cosh(x):
    """Elementwise hyperbolic cosine function ``y = cosh(x)``."""
    return Cosh().apply((x,))[0]


class Sinh(_elementwise.UnaryFloat):
    """Elementwise hyperbolic sine."""

    _label = 'sinh'

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx = backend.get_array_module(x.array).cosh(x.array)
            gx *= gy.array
            return _fast.as_grad(utils.force_array(gx)),
        return cosh(x) * gy,


def sinh(x):
    """Elementwise hyperbolic sine function ``y = sinh(x)``."""
    return Sinh().apply((x,))[0]
