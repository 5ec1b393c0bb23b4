"""Horizontal (column-wise) stacking (`chainer.functions.hstack`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.split_axis import split_axis
from minichainer.utils import type_check


def check_stack_types(in_types, axis, low_ndim, low_same_shape):
    """Type-check the inputs of an `hstack`-like stacking along `axis`.

    Every input `x{i}` must share the dtype and ndim of `x0`; inputs of
    ndim > `low_ndim` must agree in every dimension but `axis`, and inputs
    of ndim <= `low_ndim` must have equal shapes when `low_same_shape`
    (and are otherwise not checked further).
    """
    type_check.expect(in_types.size() > 0)
    type_check._argname((in_types[0],), ('x0',))
    ndim = type_check.eval(in_types[0].ndim)
    for i in range(1, type_check.eval(in_types.size())):
        type_check._argname((in_types[i],), ('x{}'.format(i),))
        type_check.expect(in_types[0].dtype == in_types[i].dtype,
                          in_types[0].ndim == in_types[i].ndim)
        if ndim <= low_ndim:
            if low_same_shape:
                type_check.expect(in_types[0].shape == in_types[i].shape)
            continue
        for d in range(ndim):
            if d != axis:
                type_check.expect(in_types[0].shape[d] == in_types[i].shape[d])


class Hstack(function_node.FunctionNode):
    """Concatenate arrays horizontally, as `numpy.hstack`."""

    def check_type_forward(self, in_types):
        check_stack_types(in_types, 1, 1, False)

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.hstack(xs),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        ndim = len(self.inputs[0].shape)
        if len(self.inputs) == 1:
            if ndim == 0:
                return reshape(gy, ()),
            return gy,
        if ndim == 0:
            gxs = split_axis(gy, len(self.inputs), 0)
            return tuple(reshape(g, ()) for g in gxs)
        axis = 0 if ndim == 1 else 1
        sizes = numpy.cumsum([node.shape[axis] for node in self.inputs[:-1]])
        return split_axis(gy, sizes, axis)


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
