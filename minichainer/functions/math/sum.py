"""Sums: `sum` over axes and `sum_to` a shape (the inverse of broadcasting)."""
from minichainer import utils
from minichainer import variable
from minichainer.function_node import FunctionNode
from minichainer.functions.array import broadcast
from minichainer.functions.array import reshape
from minichainer.utils import type_check


def _normalize_axis(axis, ndim, label):
    if axis is None:
        return None
    if isinstance(axis, int):
        axis = (axis,)
    elif isinstance(axis, tuple) and all(isinstance(a, int) for a in axis):
        pass
    else:
        raise TypeError('{}: axis must be None, an int or a tuple of ints, got {!r}'.format(
            label, axis))
    normalized = []
    for a in axis:
        if not -ndim <= a < ndim:
            raise ValueError('{}: axis {} is out of bounds for an array of dimension {}'
                             .format(label, a, ndim))
        normalized.append(a % ndim)
    if len(set(normalized)) != len(normalized):
        raise ValueError('{}: duplicate value in axis: {!r}'.format(label, axis))
    return tuple(sorted(normalized))


def unreduced_shape(shape, axis, ndim):
    """`shape` of a reduction over `axis` of an `ndim`-dim array, with a 1
    put back at each reduced axis (the shape `keepdims=True` would give)."""
    shape = list(shape)
    for a in sorted(a % ndim for a in axis):
        shape.insert(a, 1)
    return tuple(shape)


class Sum(FunctionNode):
    """Sum of array elements over given axes."""

    keepdims = False

    def __init__(self, axis=None, keepdims=False):
        if axis is None:
            self.axis = None
        elif isinstance(axis, int):
            self.axis = (axis,)
        elif isinstance(axis, tuple) and all(isinstance(a, int) for a in axis):
            if len(set(axis)) != len(axis):
                raise ValueError('duplicate value in axis: ({})'.format(
                    ', '.join(map(str, axis))))
            self.axis = axis
        else:
            raise TypeError('sum: axis must be None, an int or a tuple of ints, got '
                            '{!r}'.format(axis))
        self.keepdims = keepdims

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')
        if self.axis is not None:
            type_check.expect_axis(in_types[0], tuple(self.axis))

    def forward(self, inputs):
        x, = inputs
        return utils.force_array(x.sum(axis=self.axis, keepdims=self.keepdims)),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        in_shape = self.inputs[0].shape
        ndim = len(in_shape)
        if not (ndim == 0 or self.axis is None or self.keepdims):
            gy = reshape.reshape(gy, unreduced_shape(gy.shape, self.axis, ndim))
        return broadcast.broadcast_to(gy, in_shape),


def sum(x, axis=None, keepdims=False):  # noqa: A001 - Chainer's name
    """Sum of the elements of `x` over `axis` (None: all axes)."""
    return Sum(axis, keepdims).apply((x,))[0]


class SumTo(FunctionNode):
    """Sum elements so that the result has the given (broadcast-compatible) shape."""

    def __init__(self, shape):
        self._shape = tuple(shape)

    @property
    def target_shape(self):
        """The shape the input is summed to (a tuple)."""
        return self._shape

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        x, = inputs
        shape = self._shape
        lead = x.ndim - len(shape)
        if lead < 0 or any(s != 1 and s != xs for s, xs in zip(shape, x.shape[lead:])):
            raise ValueError('sum_to: cannot sum an array of shape {} to shape {}'.format(
                x.shape, shape))
        return utils.force_array(utils.array.sum_to(x, shape)),

    def backward(self, indexes, grad_outputs):
        return broadcast.broadcast_to(grad_outputs[0], self.inputs[0].shape),


def sum_to(x, shape):
    """Sum `x` down to `shape` (the adjoint of `broadcast_to`)."""
    shape = tuple(shape)
    if x.shape == shape:
        return variable.as_variable(x)
    return SumTo(shape).apply((x,))[0]
