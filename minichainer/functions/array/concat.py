"""Concatenation along an existing axis (`chainer.functions.concat`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import variable
from minichainer.functions.array import split_axis
from minichainer.utils import type_check


class Concat(function_node.FunctionNode):
    """Concatenate arrays along an axis."""

    def __init__(self, axis=1):
        if not isinstance(axis, int):
            raise TypeError('Concat: axis must be int, got {}'.format(type(axis).__name__))
        self.axis = axis

    def check_type_forward(self, in_types):
        if type_check.in_light_mode():
            self._check_light(in_types)
            return
        type_check.expect(in_types.size() > 0)
        type_check.expect(in_types[0].ndim > type_check.make_variable(self.axis, 'axis'))
        type_check.expect(-in_types[0].ndim <= self.axis, self.axis < in_types[0].ndim)
        ndim = type_check.eval(in_types[0].ndim)
        axis = self.axis % ndim
        for i in range(1, type_check.eval(in_types.size())):
            type_check.expect(in_types[0].dtype == in_types[i].dtype,
                              in_types[0].ndim == in_types[i].ndim)
            for d in range(ndim):
                if d != axis:
                    type_check.expect(in_types[0].shape[d] == in_types[i].shape[d])

    def _check_light(self, xs):
        # Plain-Python version of the conditions below for the hot path; a failure is
        # re-checked on expressions by the caller to build the message.
        if not xs:
            raise type_check.InvalidType('', '')
        shape = xs[0].shape
        ndim = len(shape)
        axis = self.axis
        if not -ndim <= axis < ndim:
            raise type_check.InvalidType('', '')
        axis %= ndim
        head = shape[:axis]
        tail = shape[axis + 1:]
        dtype = xs[0].dtype
        for x in xs[1:]:
            s = x.shape
            if (x.dtype != dtype or len(s) != ndim or s[:axis] != head
                    or s[axis + 1:] != tail):
                raise type_check.InvalidType('', '')

    def forward(self, xs):
        xp = backend.get_array_module(*xs)
        return xp.concatenate(xs, self.axis),

    def backward(self, indexes, grad_outputs):
        if len(self.inputs) == 1:
            return grad_outputs
        axis = self.axis
        sizes = []
        total = 0
        for node in self.inputs[:-1]:
            total += node.shape[axis]
            sizes.append(total)
        gy, = grad_outputs
        return split_axis.split_axis(gy, sizes, axis)


def concat(xs, axis=1):
    """Concatenate variables along an existing axis.

    Args:
        xs (sequence of Variable or numpy.ndarray): Inputs of one dtype and
            equal shapes except along `axis`.
        axis (int): The axis to join along (default 1).

    Returns:
        Variable: The concatenated variable.
    """
    if isinstance(xs, (variable.Variable,) + backend.get_array_types()):  # as Chainer
        raise TypeError('concat: xs must be a sequence of variables or arrays, got a '
                        'single {}'.format(type(xs).__name__))
    y, = Concat(axis).apply(xs)
    return y
