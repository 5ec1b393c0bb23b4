"""``fix``: elementwise rounding toward zero (not differentiable)."""
from minichainer.functions.math import _elementwise


def fix(x):
    """Elementwise rounding toward zero, keeping the dtype; cuts the graph.

    Args:
        x (~chainer.Variable or ndarray): Input.

    Returns:
        ~chainer.Variable: Output variable.
    """
    return _elementwise.rounded(x, 'fix')
