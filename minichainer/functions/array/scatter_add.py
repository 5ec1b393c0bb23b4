"""Adding values at indexed positions (`chainer.functions.scatter_add`)."""
import minichainer
from minichainer import function_node
from minichainer.functions.array.get_item import get_item
from minichainer.utils import scatter
from minichainer.utils import type_check


class ScatterAdd(function_node.FunctionNode):
    """`y = a.copy(); y[slices] += b` with repeated indices accumulated."""

    def __init__(self, slices):
        if isinstance(slices, list):
            if all(isinstance(s, int) for s in slices):
                slices = (slices,)
            slices = tuple(slices)
        elif not isinstance(slices, tuple):
            slices = (slices,)
        if minichainer.is_debug():
            if sum(1 for s in slices if s is Ellipsis) > 1:
                raise ValueError('Only one Ellipsis is allowed')
        self.slices = slices

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a', 'b'))
        n_nones = len([item for item in self.slices if item is None])
        valid_slice = len(self.slices) - n_nones
        type_check.expect(in_types[0].ndim >= valid_slice)

    def forward(self, inputs):
        a, b = inputs
        y = a.copy()
        target_shape = y[self.slices].shape
        if target_shape != b.shape:
            raise ValueError(
                'scatter_add: b must have the shape of a[slices] {} (Chainer does not '
                'broadcast here), got {}'.format(target_shape, b.shape))
        scatter.scatter_add(y, self.slices, b)
        return y,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(gy)
        if 1 in indexes:
            ret.append(get_item(gy, self.slices))
        return ret


def scatter_add(a, slices, b):
    """Return a copy of `a` with `b` added at `a[slices]` (repeats accumulate).

    Args:
        a (Variable or numpy.ndarray): The base variable.
        slices (int, slice, Ellipsis, None, array, list or tuple of them): Where to add.
        b (Variable or numpy.ndarray): Values of shape `a[slices].shape`.

    Returns:
        Variable: The result.

    Raises:
        ValueError: when `b`'s shape differs from that of `a[slices]`.
    """
    y, = ScatterAdd(slices).apply((a, b))
    return y
