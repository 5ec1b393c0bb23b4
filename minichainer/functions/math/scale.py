"""`scale`: Caffe-style broadcast multiplication."""
from minichainer.functions.math.bias import _expand


def scale(x, y, axis=1):
    """Elementwise product with Caffe-style broadcasting of `y` from `axis` on.

    `y` is aligned with `x.shape[axis:axis + y.ndim]` (see
    [`bias`][minichainer.functions.math.bias.bias]).

    Args:
        x (Variable or ndarray): Input variable to be scaled.
        y (Variable or ndarray): Input variable to scale, broadcasted.
        axis (int): The first axis of `x` along which `y` is applied.

    Returns:
        Variable: Output variable.
    """
    return x * _expand('scale', x, y, axis)
