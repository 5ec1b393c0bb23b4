"""Tiling an array (`chainer.functions.tile`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.reshape import reshape
from minichainer.functions.math.sum import sum as _sum
from minichainer.utils import type_check


class Tile(function_node.FunctionNode):
    """Tile an array, as `numpy.tile`."""

    def __init__(self, reps):
        if isinstance(reps, int):
            self.reps = (reps,)
        elif isinstance(reps, tuple) and all(isinstance(r, int) for r in reps):
            self.reps = reps
        else:
            raise TypeError('reps must be int or tuple of ints.\nActual: {}'.format(
                type(reps)))
        if not all(r >= 0 for r in self.reps):
            raise ValueError('All elements in reps must be zero or larger, got {}'.format(
                self.reps))

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 1)

    def forward(self, inputs):
        x, = inputs
        self._in_shape = x.shape
        xp = backend.get_array_module(x)
        return xp.tile(x, self.reps),

    def backward(self, indexes, grad_outputs):
        reps = self.reps
        shape = tuple(self._in_shape)
        ndim = len(shape)
        if ndim > len(reps):
            reps = (1,) * (ndim - len(reps)) + reps
        elif ndim < len(reps):
            shape = (1,) * (len(reps) - ndim) + shape
        gy, = grad_outputs
        # Split every axis into (repetition, original) and sum over the repetitions.
        split_shape = []
        for r, s in zip(reps, shape):
            split_shape.append(r)
            split_shape.append(s)
        gy = reshape(gy, tuple(split_shape))
        gx = _sum(gy, axis=tuple(range(0, 2 * len(shape), 2)))
        if ndim < len(reps):
            gx = reshape(gx, self._in_shape)
        return gx,


def tile(x, reps):
    """Construct a variable by repeating `x` `reps` times, as `numpy.tile`.

    Args:
        x (Variable or numpy.ndarray): Input variable.
        reps (int or tuple of int): Repetitions along each axis.

    Returns:
        Variable: The tiled variable.
    """
    return Tile(reps).apply((x,))[0]
