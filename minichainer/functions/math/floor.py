"""``floor``: elementwise floor (not differentiable)."""
from minichainer import backend
from minichainer import utils


def floor(x):
    """Elementwise floor, keeping the dtype of ``x``; cuts the graph (no gradient).

    Args:
        x (~chainer.Variable or ndarray): Input.

    Returns:
        ~chainer.Variable: Output variable.
    """
    from minichainer import variable
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    return variable.as_variable(utils.force_array(xp.floor(x), x.dtype))
