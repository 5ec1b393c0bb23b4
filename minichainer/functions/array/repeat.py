"""Repeating elements (`chainer.functions.repeat`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class Repeat(function_node.FunctionNode):
    """Repeat the elements of an array, as `numpy.repeat`."""

    def __init__(self, repeats, axis=None):
        # bool counts as an int (True == 1), as in numpy.repeat; store plain ints.
        if isinstance(repeats, int):
            self.repeats = (int(repeats),)
        elif isinstance(repeats, tuple) and all(isinstance(r, int) for r in repeats):
            self.repeats = tuple(int(r) for r in repeats)
        else:
            raise TypeError('repeats must be int or tuple of ints, got {!r}'.format(repeats))
        if not all(r >= 0 for r in self.repeats):
            raise ValueError('all elements in repeats must be zero or larger, got {}'
                             .format(self.repeats))
        if axis is not None and (not isinstance(axis, int) or isinstance(axis, bool)):
            raise TypeError('axis must be int or None, got {!r}'.format(axis))
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        xp = backend.get_array_module(x)
        repeats = self.repeats
        if len(repeats) == 1:
            repeats = repeats[0]
        return xp.repeat(x, repeats, self.axis),

    def backward(self, indexes, grad_outputs):
        node = self.inputs[0]
        return RepeatGrad(self.repeats, self.axis, node.shape, node.dtype).apply(
            grad_outputs)


class RepeatGrad(function_node.FunctionNode):
    """Gradient of `Repeat`: sums the repeated copies back."""

    def __init__(self, repeats, axis, in_shape, in_dtype):
        self.repeats = repeats
        if axis is not None and axis < 0:
            axis += len(in_shape)
        self.axis = axis
        self.in_shape = in_shape
        self.in_dtype = in_dtype

    def forward(self, inputs):
        gy, = inputs
        xp = backend.get_array_module(gy)
        repeats = self.repeats
        axis = self.axis
        shape = list(self.in_shape)
        if gy.size == 0:
            return xp.zeros(shape, self.in_dtype),
        if len(repeats) == 1:
            r = repeats[0]
            if axis is None:
                gx = gy.reshape(-1, r).sum(axis=1).reshape(shape)
            else:
                shape[axis:axis + 1] = [-1, r]
                gx = gy.reshape(shape).sum(axis=axis + 1)
            return gx.astype(self.in_dtype, copy=False),
        # Per-element repeat counts: sum each run of copies (reduceat skips empty runs).
        ax = 0 if axis is None else axis
        flat = gy if axis is not None else gy.reshape(-1)
        gx = xp.zeros(shape if axis is not None else (len(repeats),), self.in_dtype)
        starts = []
        targets = []
        pos = 0
        for i, r in enumerate(repeats):
            if r > 0:
                starts.append(pos)
                targets.append(i)
            pos += r
        if starts:
            index = (slice(None),) * ax + (targets,)
            gx[index] = xp.add.reduceat(flat, starts, axis=ax)
        return gx.reshape(shape),

    def backward(self, indexes, grad_outputs):
        return Repeat(self.repeats, self.axis).apply(grad_outputs)


def repeat(x, repeats, axis=None):
    """Repeat each element of `x` `repeats` times, as `numpy.repeat`.

    Args:
        x (Variable or numpy.ndarray): Input variable.
        repeats (int or tuple of int): Number of repetitions, one for all elements or
            one per element along `axis`.
        axis (int or None): The axis to repeat along; None repeats the flattened input.

    Returns:
        Variable: The repeated variable.
    """
    return Repeat(repeats, axis).apply((x,))[0]
