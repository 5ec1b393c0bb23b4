"""Mean squared error."""
from minichainer import function_node
from minichainer import utils
from minichainer.functions.util import checks
from minichainer.functions.array.broadcast import broadcast_to


class MeanSquaredError(function_node.FunctionNode):
    """FunctionNode of
    [`mean_squared_error`][minichainer.functions.loss.mean_squared_error.mean_squared_error]."""

    def check_type_forward(self, in_types):
        checks.expect_same_float_pair(in_types, ('x0', 'x1'))

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        diff = (inputs[0] - inputs[1]).ravel()
        return utils.force_array(diff.dot(diff) / diff.dtype.type(diff.size),
                                 diff.dtype),

    def backward(self, indexes, gy):
        x0, x1 = self.get_retained_inputs()
        diff = x0 - x1
        gy0 = broadcast_to(gy[0], diff.shape)
        gx0 = gy0 * diff * (2. / diff.size)
        ret = []
        if 0 in indexes:
            ret.append(gx0)
        if 1 in indexes:
            ret.append(-gx0)
        return ret


def mean_squared_error(x0, x1):
    """Mean of the squared elementwise differences of `x0` and `x1` (a scalar)."""
    return MeanSquaredError().apply((x0, x1))[0]
