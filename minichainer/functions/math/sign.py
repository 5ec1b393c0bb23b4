"""`sign`: elementwise sign (not differentiable)."""
from minichainer import backend
from minichainer import configuration
from minichainer import function_node
from minichainer import utils
from minichainer import variable


def sign(x):
    """Elementwise sign: -1, 0 or 1 with the dtype of `x`.

    The result is a new Variable without a creator: the gradient of `sign`
    is None everywhere, so it cuts the graph (as Chainer).

    Args:
        x (Variable or ndarray): Input.

    Returns:
        Variable: Output variable.
    """
    if configuration.config.record_non_differentiable:
        # an exporter traces the forward pass (minichainer.onnx): one node in the graph
        return Sign().apply((x,))[0]
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    return variable.as_variable(utils.force_array(xp.sign(x)))


class Sign(function_node.FunctionNode):
    """The node `sign` makes while an exporter traces the forward pass (otherwise
    `sign` makes none, as Chainer's); its gradient is None."""

    def forward(self, inputs):
        x, = inputs
        return utils.force_array(backend.get_array_module(x).sign(x)),

    def backward(self, indexes, grad_outputs):
        return None,
