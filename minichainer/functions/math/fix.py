"""``fix``: elementwise rounding toward zero (not differentiable)."""
from minichainer import backend
from minichainer import utils


def fix(x):
    """Elementwise rounding toward zero, keeping the dtype; cuts the graph.

    Args:
        x (~chainer.Variable or ndarray): Input.

    Returns:
        ~chainer.Variable: Output variable.
    """
    from minichainer import variable
    if isinstance(x, variable.Variable):
        x = x.array
    xp = backend.get_array_module(x)
    return variable.as_variable(utils.force_array(xp.fix(x), x.dtype))
