"""Huber loss."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.util import checks
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.expand_dims import expand_dims
from minichainer.functions.math.clip import clip


class HuberLoss(function_node.FunctionNode):
    """FunctionNode of [`huber_loss`][minichainer.functions.loss.huber_loss.huber_loss]."""

    def __init__(self, delta, reduce='sum_along_second_axis'):
        self.delta = delta
        if reduce not in ('sum_along_second_axis', 'no'):
            raise ValueError(
                "Only 'sum_along_second_axis' and 'no' are valid for 'reduce', but "
                "'%s' is given" % reduce)
        self.reduce = reduce

    def check_type_forward(self, in_types):
        checks.expect_same_float_pair(in_types, ('x', 't'))

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        x0, x1 = inputs
        dtype = x0.dtype
        diff = utils.force_array(x0 - x1, dtype)
        delta = dtype.type(self.delta)
        xp.abs(diff, out=diff)
        y = utils.force_array(xp.square(diff), dtype)
        diff -= delta
        xp.maximum(diff, 0, dtype=dtype, out=diff)
        xp.square(diff, out=diff)
        y -= diff
        y *= dtype.type(0.5)
        if self.reduce == 'sum_along_second_axis':
            return y.sum(axis=1),
        return y,

    def backward(self, indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        diff = x0 - x1
        gx = clip(diff, -self.delta, self.delta)
        if self.reduce == 'sum_along_second_axis':
            gy = expand_dims(gy, 1)
        gx = broadcast_to(gy, gx.shape) * gx
        return gx, -gx


def huber_loss(x, t, delta, reduce='sum_along_second_axis'):
    """Huber loss: `0.5 a^2` if `|a| <= delta` else `delta (|a| - 0.5 delta)`, a = x - t.

    Args:
        reduce (str): `'sum_along_second_axis'` (sum over axis 1) or `'no'`.
    """
    return HuberLoss(delta=delta, reduce=reduce).apply((x, t))[0]
