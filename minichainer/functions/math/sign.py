"""`sign`: elementwise sign (not differentiable)."""
from minichainer import backend
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
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    return variable.as_variable(utils.force_array(xp.sign(x)))
