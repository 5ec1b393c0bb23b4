"""Attach a delegate variable to real variables (``chainermn.functions.pseudo_connect``)."""
import numpy

from minichainer import function_node
from minichainer import variable


class PseudoConnect(function_node.FunctionNode):
    """Identity on the actual variables whose backward also reaches the delegate."""

    def forward(self, inputs):
        self._delegate_like = numpy.empty_like(inputs[0])
        return tuple(inputs[1:])

    def backward(self, target_input_indexes, grad_outputs):
        gd = variable.Variable(numpy.zeros_like(self._delegate_like))
        return (gd,) + tuple(grad_outputs)


def pseudo_connect(delegate_variable, *actual_variables):
    """Return ``actual_variables`` (one Variable or a tuple) connected in the graph to
    ``delegate_variable``, so a backward pass from them also runs the delegate's
    (e.g. a :func:`send`'s) backward.

    Raises:
        ValueError: no ``actual_variables``.
    """
    if not actual_variables:
        raise ValueError('pseudo_connect: at least one actual variable is required')
    if delegate_variable is None:
        return actual_variables[0] if len(actual_variables) == 1 else actual_variables
    ys = PseudoConnect().apply((delegate_variable,) + actual_variables)
    return ys[0] if len(ys) == 1 else ys
