"""Rolling an axis backwards (`chainer.functions.rollaxis`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class Rollaxis(function_node.FunctionNode):
    """Roll an axis of an array to a given position."""

    def __init__(self, axis, start):
        if not isinstance(axis, int):
            raise TypeError('axis must be int, got {}'.format(type(axis).__name__))
        if not isinstance(start, int):
            raise TypeError('start must be int, got {}'.format(type(start).__name__))
        self.axis = axis
        self.start = start

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        if self.axis >= 0:
            type_check.expect(x_type.ndim > self.axis)
        else:
            type_check.expect(x_type.ndim > -self.axis - 1)
        if self.start >= 0:
            type_check.expect(x_type.ndim >= self.start)
        else:
            type_check.expect(x_type.ndim > -self.start - 1)

    def forward(self, inputs):
        self.retain_inputs(())
        x, = inputs
        self._in_ndim = x.ndim
        xp = backend.get_array_module(x)
        return xp.rollaxis(x, self.axis, self.start),

    def backward(self, indexes, grad_outputs):
        ndim = self._in_ndim
        axis = self.axis + ndim if self.axis < 0 else self.axis
        start = self.start + ndim if self.start < 0 else self.start
        # Where the rolled axis ended up, and where it came from, in the output's frame.
        if axis > start:
            axis += 1
        elif axis < start:
            start -= 1
        return Rollaxis(start, axis).apply(grad_outputs)


def rollaxis(x, axis, start=0):
    """Roll the axis `axis` of `x` backwards until it lies before `start`.

    Args:
        x (Variable or numpy.ndarray): Input variable.
        axis (int): The axis to roll.
        start (int): The position the axis is moved to.

    Returns:
        Variable: Variable whose axis is rolled.
    """
    return Rollaxis(axis, start).apply((x,))[0]
