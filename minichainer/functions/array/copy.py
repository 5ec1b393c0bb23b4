"""Copying a variable to a device (`chainer.functions.copy`)."""
from minichainer import backend
from minichainer import function_node
from minichainer import variable
from minichainer.backends import cuda
from minichainer.utils import type_check


class Copy(function_node.FunctionNode):
    """Send an array to a device; the gradient is sent back."""

    def __init__(self, in_device, out_device):
        self._in_device = in_device
        self.out_device = out_device

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))

    def forward(self, inputs):
        x, = inputs
        return self.out_device.send(x),

    def backward(self, indexes, grad_outputs):
        return Copy(self.out_device, self._in_device).apply(grad_outputs)


def copy(x, dst):
    """Copy `x` to the device `dst`, keeping it in the graph.

    Only the CPU exists here (`-1`, `'@numpy'`, `numpy` or a CPU Device); as in
    Chainer, sending a NumPy array to the CPU does not duplicate its data.

    Args:
        x (Variable or numpy.ndarray): Input variable.
        dst: Target device specifier.

    Returns:
        Variable: The variable on the target device.

    Raises:
        RuntimeError: when `dst` names a GPU (no GPU backend is available).
    """
    if dst is cuda.DummyDevice or isinstance(dst, cuda.DummyDeviceType):
        dst = '@numpy'
    array = x.array if isinstance(x, variable.Variable) else x
    in_device = backend.get_device_from_array(array)
    out_device = backend.get_device(dst)
    y, = Copy(in_device, out_device).apply((x,))
    return y
