"""`bias`: Caffe-style broadcast addition."""
import minichainer
from minichainer.functions.array import broadcast
from minichainer.functions.array import reshape


def _expand(fname, x, y, axis):
    x_shape = x.shape
    y_shape = y.shape
    if minichainer.is_debug():
        assert x_shape[axis:axis + len(y_shape)] == y_shape, (
            '{}: y.shape {} must equal x.shape[{}:{}] {}'.format(
                fname, y_shape, axis, axis + len(y_shape),
                x_shape[axis:axis + len(y_shape)]))
    y1_shape = (1,) * axis + tuple(y_shape) + (1,) * (len(x_shape) - axis - len(y_shape))
    y1 = reshape.reshape(y, y1_shape)
    return broadcast.broadcast_to(y1, x_shape)


def bias(x, y, axis=1):
    """Elementwise sum with Caffe-style broadcasting of `y` from `axis` on.

    `y` is aligned with `x.shape[axis:axis + y.ndim]`; e.g. `x` (100, 3,
    40, 60), `y` (3, 40), `axis=1` is NumPy broadcasting of `y` as
    (1, 3, 40, 1).

    Args:
        x (Variable or ndarray): Input variable to be summed.
        y (Variable or ndarray): Input variable to sum, broadcasted.
        axis (int): The first axis of `x` along which `y` is applied.

    Returns:
        Variable: Output variable.
    """
    return x + _expand('bias', x, y, axis)
