"""`floor`: elementwise floor (not differentiable)."""
from minichainer.functions.math import _elementwise


def floor(x):
    """Elementwise floor, keeping the dtype of `x`; cuts the graph (no gradient).

    Args:
        x (Variable or ndarray): Input.

    Returns:
        Variable: Output variable.
    """
    return _elementwise.rounded(x, 'floor')
