"""DeCov loss (decorrelation of hidden activations)."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


class DeCov(function_node.FunctionNode):
    """FunctionNode of [`decov`][minichainer.functions.loss.decov.decov] (Chainer uses an
    old-style Function)."""

    def __init__(self, reduce='half_squared_sum'):
        self.reduce = checks.reduce_option(reduce, ('half_squared_sum', 'no'))

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('h',))
        h_type, = in_types
        type_check.expect(
            h_type.dtype.kind == 'f',
            h_type.ndim == 2,
        )

    def forward(self, inputs):
        self.retain_inputs((0,))
        h, = inputs
        xp = backend.get_array_module(h)
        h_c = h - h.mean(axis=0, keepdims=True)
        covariance = h_c.T.dot(h_c)
        xp.fill_diagonal(covariance, 0.0)
        covariance /= len(h)
        self._covariance = covariance
        if self.reduce == 'half_squared_sum':
            cost = xp.vdot(covariance, covariance)
            cost *= h.dtype.type(0.5)
            return utils.force_array(cost, h.dtype),
        return covariance,

    def backward(self, indexes, grad_outputs):
        h, = self.get_retained_inputs()
        gcost, = grad_outputs
        n = len(h)
        xp = backend.get_array_module(h.array)
        h_c = h - broadcast_to(_sum(h, axis=0, keepdims=True) / n, h.shape)
        off_diag = 1 - xp.eye(h.shape[1], dtype=h.dtype)
        gcost_div_n = gcost / gcost.dtype.type(n)
        if self.reduce == 'half_squared_sum':
            cov = matmul(h_c, h_c, transa=True) * off_diag / n
            gh = 2.0 * matmul(h_c, cov)
            gh = gh * broadcast_to(gcost_div_n, gh.shape)
        else:
            g = gcost_div_n * off_diag
            gh = matmul(h_c, g + g.T)
        return gh,


def decov(h, reduce='half_squared_sum'):
    """DeCov loss: half the squared sum of the off-diagonal covariances of `h` (N, M).

    With `reduce='no'` the (M, M) covariance matrix with zeroed diagonal is returned.
    """
    return DeCov(reduce).apply((h,))[0]
