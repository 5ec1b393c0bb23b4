"""Moving axes to new positions (`chainer.functions.moveaxis`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class Moveaxis(function_node.FunctionNode):
    """Move axes of an array to new positions."""

    def __init__(self, source, destination):
        self.source = (source,) if isinstance(source, int) else source
        self.destination = (destination,) if isinstance(destination, int) else destination

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        x_type = in_types[0]
        type_check.expect(x_type.dtype.kind == 'f')
        for axes in (self.source, self.destination):
            if axes is None:
                continue
            for axis in axes:
                if axis >= 0:
                    type_check.expect(axis < x_type.ndim)
                else:
                    type_check.expect(-axis - 1 < x_type.ndim)

    def forward(self, inputs):
        self.retain_inputs(())
        x, = inputs
        xp = backend.get_array_module(x)
        return xp.moveaxis(x, self.source, self.destination),

    def backward(self, indexes, grad_outputs):
        return Moveaxis(self.destination, self.source).apply(grad_outputs)


def moveaxis(x, source, destination):
    """Move the axes `source` of `x` to the positions `destination`.

    Args:
        x (Variable or numpy.ndarray): Input variable (floating point).
        source (int or tuple of int): Original positions of the axes to move (unique).
        destination (int or tuple of int): Destination positions (unique).

    Returns:
        Variable: Variable whose axes are moved.
    """
    return Moveaxis(source, destination).apply((x,))[0]
