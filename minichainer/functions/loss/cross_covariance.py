"""Cross-covariance loss."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


class CrossCovariance(function_node.FunctionNode):
    """FunctionNode of
    [`cross_covariance`][minichainer.functions.loss.cross_covariance.cross_covariance] (inputs
    `(y, z)`)."""

    def __init__(self, reduce='half_squared_sum'):
        self.reduce = checks.reduce_option(reduce, ('half_squared_sum', 'no'))

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('y', 'z'))
        y_type, z_type = in_types
        type_check.expect(
            y_type.dtype.kind == 'f',
            y_type.dtype == z_type.dtype,
            y_type.ndim == 2,
            z_type.ndim == 2,
            y_type.shape[0] == z_type.shape[0],
        )

    def forward(self, inputs):
        y, z = inputs
        self.retain_inputs((0, 1))
        y_c = y - y.mean(axis=0, keepdims=True)
        z_c = z - z.mean(axis=0, keepdims=True)
        covariance = y_c.T.dot(z_c)
        covariance /= len(y)
        if self.reduce == 'half_squared_sum':
            xp = backend.get_array_module(*inputs)
            cost = xp.vdot(covariance, covariance)
            cost *= y.dtype.type(0.5)
            return utils.force_array(cost, y.dtype),
        return covariance,

    def backward(self, indexes, grad_outputs):
        y, z = self.get_retained_inputs()
        gcost, = grad_outputs
        n = len(y)
        y_c = y - broadcast_to(_sum(y, axis=0, keepdims=True) / n, y.shape)
        z_c = z - broadcast_to(_sum(z, axis=0, keepdims=True) / n, z.shape)
        gcost_div_n = gcost / gcost.dtype.type(n)
        ret = []
        if self.reduce == 'half_squared_sum':
            covariance = matmul(y_c, z_c, transa=True) / n
            if 0 in indexes:
                gy = matmul(z_c, covariance, transb=True)
                ret.append(gy * broadcast_to(gcost_div_n, gy.shape))
            if 1 in indexes:
                gz = matmul(y_c, covariance)
                ret.append(gz * broadcast_to(gcost_div_n, gz.shape))
        else:
            if 0 in indexes:
                ret.append(matmul(z_c, gcost_div_n, transb=True))
            if 1 in indexes:
                ret.append(matmul(y_c, gcost_div_n))
        return ret


def cross_covariance(y, z, reduce='half_squared_sum'):
    """Cross-covariance loss between `y` (N, M) and `z` (N, K).

    Returns half the squared Frobenius norm of the cross-covariance matrix
    (`reduce='half_squared_sum'`) or the (M, K) matrix itself (`'no'`).
    """
    return CrossCovariance(reduce).apply((y, z))[0]
