"""Choosing elements by a condition (`chainer.functions.where`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import variable
from minichainer.functions.math.sum import sum_to
from minichainer.utils import type_check


def _condition_type(condition):
    if type_check.in_light_mode():
        return condition
    return type_check.Variable(type_check.TypeInfo(condition.shape, condition.dtype),
                               'condition')


class Where(function_node.FunctionNode):
    """Choose from `x` where `condition` holds and from `y` elsewhere."""

    def __init__(self, condition):
        self.condition = condition

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'y'))
        x_type, y_type = in_types
        condition = _condition_type(self.condition)
        type_check.expect(condition.dtype == numpy.bool_, x_type.dtype == y_type.dtype)
        type_check.expect_broadcast_shapes(condition.shape, x_type.shape, y_type.shape)

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        x, y = inputs
        if xp is not numpy and isinstance(self.condition, numpy.ndarray) \
                and not self.condition.ndim:
            self.condition = xp.asarray(self.condition)   # a scalar condition, sent over
        return xp.where(self.condition, x, y),

    def backward(self, indexes, grad_outputs):
        condition = self.condition
        xp = backend.get_array_module(condition)
        g, = grad_outputs
        zero = xp.zeros((), dtype=g.dtype)
        ret = []
        if 0 in indexes:
            gx, = Where(condition).apply((g, zero))
            ret.append(sum_to(gx, self.inputs[0].shape))
        if 1 in indexes:
            gy, = Where(condition).apply((zero, g))
            ret.append(sum_to(gy, self.inputs[1].shape))
        return ret


def where(condition, x, y):
    """Choose elements from `x` where `condition` is True and from `y` elsewhere.

    `condition`, `x` and `y` broadcast together; the gradients are summed back to
    the shapes of `x` and `y`.

    Args:
        condition (Variable or numpy.ndarray): Bool array.
        x (Variable or numpy.ndarray): Values where the condition holds.
        y (Variable or numpy.ndarray): Values elsewhere (dtype of `x`).

    Returns:
        Variable: The chosen values.
    """
    if isinstance(condition, variable.Variable):
        condition = condition.array
    condition = numpy.asarray(condition) if numpy.isscalar(condition) else condition
    z, = Where(condition).apply((x, y))
    return z
