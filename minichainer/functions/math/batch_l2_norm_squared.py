"""`batch_l2_norm_squared`: squared L2 norm of every sample of a batch."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.array import broadcast
from minichainer.functions.math import sum as sum_mod
from minichainer.functions.math import _elementwise


def _as_mat(x):
    return x.reshape(len(x), -1) if x.ndim != 2 else x


class BatchL2NormSquared(function_node.FunctionNode):
    """`y[i] = sum(x[i] ** 2)` over all but the first axis."""

    def check_type_forward(self, in_types):
        _elementwise.check_float_x_ndim(in_types, 2)

    def forward(self, inputs):
        self.retain_inputs((0,))
        x = _as_mat(inputs[0])
        if x.dtype == numpy.float16:
            return utils.force_array((x * x).sum(axis=1)),
        xp = backend.get_array_module(x)
        return utils.force_array(xp.einsum('ij,ij->i', x, x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        if not _fast.needs_graph():
            return _fast.as_grad(BatchL2NormSquaredGrad().forward(
                (x.array, grad_outputs[0].array))[0]),
        return BatchL2NormSquaredGrad().apply((x, grad_outputs[0]))


class BatchL2NormSquaredGrad(function_node.FunctionNode):
    """`gx = 2 x gy` with `gy` broadcast over the sample axes."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gy = gy.reshape((-1,) + (1,) * (x.ndim - 1))
        gx = x * gy
        gx *= 2
        return utils.force_array(gx, x.dtype),

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        gy = broadcast.broadcast_to(gy.reshape((-1,) + (1,) * (x.ndim - 1)), x.shape)
        gg2 = 2 * ggx
        ret = []
        if 0 in indexes:
            ret.append(gg2 * gy)
        if 1 in indexes:
            ret.append(sum_mod.sum(gg2 * x, axis=tuple(range(1, x.ndim))))
        return ret


def batch_l2_norm_squared(x):
    """Squared L2 norm of every sample (first axis = batch; others flattened).

    Args:
        x (Variable or ndarray): Input of at least 2 dimensions.

    Returns:
        Variable: 1-D output of length `x.shape[0]`.
    """
    return BatchL2NormSquared().apply((x,))[0]
