"""Casting to another dtype (`chainer.functions.cast`)."""
import numpy

import minichainer
from minichainer import function_node
from minichainer import variable
from minichainer.utils import type_check


class Cast(function_node.FunctionNode):
    """Cast an array to another dtype."""

    def __init__(self, typ):
        self.type = typ

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        self._in_type = x.dtype.type
        return x.astype(self.type, copy=False),

    def backward(self, indexes, grad_outputs):
        if numpy.dtype(self._in_type).kind != 'f':
            return None,
        return cast(grad_outputs[0], self._in_type),


def cast(x, typ):
    """Cast `x` to the dtype `typ`; the gradient is cast back to the input's dtype.

    When `x` already has dtype `typ` and backprop is disabled, `x` is returned as
    a Variable without creating a node (as Chainer).

    Args:
        x (Variable or numpy.ndarray): Input variable.
        typ (str or numpy.dtype): The target dtype.

    Returns:
        Variable: The cast variable.
    """
    if x.dtype == typ and not minichainer.config.enable_backprop:
        return variable.as_variable(x)
    return Cast(typ).apply((x,))[0]
