"""Horizontal (column-wise) stacking (`chainer.functions.hstack`), and what the three
NumPy-style stackings share: `check_stack_types` and the `ArrayStack` base (`vstack.py`
and `dstack.py` build on them)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.split_axis import split_axis
from minichainer.utils import type_check


def check_stack_types(in_types, axis, low_ndim, low_same_shape, argnames=True):
    """Type-check the inputs of an `hstack`-like stacking along `axis`.

    Every input `x{i}` must share the dtype and ndim of `x0`; inputs of
    ndim > `low_ndim` must agree in every dimension but `axis`, and inputs
    of ndim <= `low_ndim` must have equal shapes when `low_same_shape`
    (and are otherwise not checked further). `argnames`: label the inputs `x0`, `x1`,
    ... in messages (Chainer's `hstack`/`dstack` do, its `vstack` does not).
    """
    type_check.expect(in_types.size() > 0)
    if argnames:
        type_check.argname((in_types[0],), ('x0',))
    ndim = type_check.eval(in_types[0].ndim)
    for i in range(1, type_check.eval(in_types.size())):
        if argnames:
            type_check.argname((in_types[i],), ('x{}'.format(i),))
        type_check.expect(in_types[0].dtype == in_types[i].dtype,
                          in_types[0].ndim == in_types[i].ndim)
        if ndim <= low_ndim:
            if low_same_shape:
                type_check.expect(in_types[0].shape == in_types[i].shape)
            continue
        for d in range(ndim):
            if d != axis:
                type_check.expect(in_types[0].shape[d] == in_types[i].shape[d])




class ArrayStack(function_node.FunctionNode):
    """Base of `Hstack`, `Vstack` and `Dstack`: NumPy's stacking of the inputs along
    `axis` (subclasses define `forward`), whose gradient splits `gy` back.

    Inputs of at most `promoted_ndim` dimensions are promoted by NumPy before they are
    joined; their gradients are reshaped back. `joined_axis(ndim)` is the axis that
    inputs of `ndim` dimensions are joined along (`axis` unless a subclass says more).
    """

    axis = None
    promoted_ndim = None

    def joined_axis(self, ndim):
        return self.axis

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        shape = self.inputs[0].shape
        ndim = len(shape)
        promoted = ndim <= self.promoted_ndim
        if len(self.inputs) == 1:
            return (reshape(gy, shape) if promoted else gy),
        axis = self.joined_axis(ndim)
        if promoted:
            gxs = split_axis(gy, len(self.inputs), axis)
            return tuple(reshape(g, shape) for g in gxs)
        sizes = numpy.cumsum([node.shape[axis] for node in self.inputs[:-1]])
        return split_axis(gy, sizes, axis)


class Hstack(ArrayStack):
    """Concatenate arrays horizontally, as `numpy.hstack`."""

    axis = 1
    promoted_ndim = 0

    def joined_axis(self, ndim):
        return 0 if ndim <= 1 else 1

    def check_type_forward(self, in_types):
        check_stack_types(in_types, 1, 1, False)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.hstack(xs),


def hstack(xs):
    """Concatenate variables horizontally (along axis 1; axis 0 for 0-d and 1-D inputs).

    Args:
        xs (sequence of Variable or numpy.ndarray): Inputs of one dtype and
            ndim whose shapes agree except along the joined axis.

    Returns:
        Variable: The stacked variable.
    """
    y, = Hstack().apply(xs)
    return y
