"""Mean absolute error."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.util import checks
from minichainer.utils import precision
from minichainer.functions.array.broadcast import broadcast_to


class MeanAbsoluteError(function_node.FunctionNode):
    """FunctionNode of
    [`mean_absolute_error`][minichainer.functions.loss.mean_absolute_error.mean_absolute_error]."""

    def check_type_forward(self, in_types):
        checks.expect_same_float_pair(in_types, ('x0', 'x1'))

    def forward(self, inputs):
        x0, x1 = inputs
        self.diff = x0 - x1
        dtype = self.diff.dtype
        # float16 is summed in float32 (as Chainer): 16,384 differences of 4 already
        # exceed float16's largest value
        diff = self.diff.ravel().astype(precision.intermediate_dtype(dtype), copy=False)
        xp = backend.get_array_module(diff)
        return utils.force_array(xp.abs(diff).sum() / diff.dtype.type(diff.size), dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        xp = backend.get_array_module(self.diff)
        coeff = gy * gy.dtype.type(1. / self.diff.size)
        coeff = broadcast_to(coeff, self.diff.shape)
        gx0 = coeff * xp.sign(self.diff)
        return gx0, -gx0


def mean_absolute_error(x0, x1):
    """Mean of the absolute elementwise differences of `x0` and `x1` (a scalar)."""
    return MeanAbsoluteError().apply((x0, x1))[0]
