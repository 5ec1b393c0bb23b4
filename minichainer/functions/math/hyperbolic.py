"""Hyperbolic functions ``sinh`` and ``cosh``."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.utils import type_check


class Cosh(function_node.FunctionNode):
    """Elementwise hyperbolic cosine."""

    @property
    def label(self):
        return 'cosh'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.cosh(x)),

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


class Sinh(function_node.FunctionNode):
    """Elementwise hyperbolic sine."""

    @property
    def label(self):
        return 'sinh'

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        return utils.force_array(xp.sinh(x)),

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
