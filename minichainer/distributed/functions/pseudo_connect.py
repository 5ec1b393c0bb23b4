"""Attach a delegate variable to real variables (`chainermn.functions.pseudo_connect`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import variable


class PseudoConnect(function_node.FunctionNode):
    """Identity on the actual variables whose backward also reaches the delegate."""

    def forward(self, inputs):
        self._delegate_like = backend.get_array_module(inputs[0]).empty_like(inputs[0])
        return tuple(inputs[1:])

    def backward(self, target_input_indexes, grad_outputs):
        like = self._delegate_like
        gd = variable.Variable(backend.get_array_module(like).zeros_like(like))
        return (gd,) + tuple(grad_outputs)


def pseudo_connect(delegate_variable, *actual_variables):
    """Return `actual_variables` connected in the graph to `delegate_variable`, so a
    backward pass from them also runs the delegate's (e.g. a `send`'s) backward.

    Returns:
        tuple of Variable: one output per actual variable (a tuple even for one, as in
        ChainerMN). With `delegate_variable=None` an empty `(0,)` float32 delegate
        is used, so the outputs are still new variables of the graph.

    Raises:
        ValueError: no `actual_variables`.
    """
    if not actual_variables:
        raise ValueError('pseudo_connect: at least one actual variable is required')
    if delegate_variable is None:
        xp = backend.get_array_module(*actual_variables)
        delegate_variable = xp.empty((0,), xp.float32)
    return PseudoConnect().apply((delegate_variable,) + actual_variables)
