"""Rectified linear unit (``chainer.functions.relu``)."""
import numpy

from minichainer import function_node
from minichainer.functions import _fast
from minichainer import utils
from minichainer.utils import type_check


class ReLU(function_node.FunctionNode):
    """Rectified Linear Unit: ``max(0, x)``."""

    is_elementwise = True
    _use_cudnn = False

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        x, = inputs
        self.retain_outputs((0,))
        return utils.force_array(numpy.maximum(x, 0, dtype=x.dtype)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        if not _fast.needs_graph():
            gy = grad_outputs[0].array
            return _fast.as_grad(gy * (y.array > 0)),
        return ReLUGrad2(y.array).apply(grad_outputs)


class ReLUGrad2(function_node.FunctionNode):
    """Gradient of ReLU: ``gy * (b > 0)`` where ``b`` (the ReLU output) is a constant."""

    def __init__(self, b):
        super().__init__()
        self.b = b

    def forward(self, inputs):
        gy, = inputs
        return utils.force_array(gy * (self.b > 0), dtype=gy.dtype),

    def backward(self, indexes, grad_outputs):
        return ReLUGrad2(self.b).apply(grad_outputs)


def relu(x):
    """Rectified Linear Unit function, ``f(x) = max(0, x)``.

    Args:
        x (~minichainer.Variable or ndarray): Input float array.

    Returns:
        ~minichainer.Variable: Output of the same shape and dtype.
    """
    y, = ReLU().apply((x,))
    return y
