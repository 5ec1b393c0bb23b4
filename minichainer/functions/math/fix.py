"""`fix`: elementwise rounding toward zero (not differentiable)."""
from minichainer.functions.math import _elementwise


def fix(x):
    """Elementwise rounding toward zero, keeping the dtype; cuts the graph.

    Args:
        x (Variable or ndarray): Input.

    Returns:
        Variable: Output variable.
    """
    return _elementwise.rounded(x, 'fix')
