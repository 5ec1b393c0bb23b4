"""`det` and `batch_det`: matrix determinant."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.array import broadcast
from minichainer.functions.array import reshape
from minichainer.functions.math import inv
from minichainer.utils import type_check


class BatchDet(function_node.FunctionNode):
    """Determinant of every matrix of a batch `(m, n, n)`."""

    @property
    def label(self):
        return 'det'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        a_type, = in_types
        type_check.expect(a_type.dtype.kind == 'f')
        # Only a minibatch of 2D array shapes allowed.
        type_check.expect(a_type.ndim == 3)
        # Determinants only exist for square matrices.
        type_check.expect(a_type.shape[-1] == a_type.shape[-2])

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        dtype = x.dtype
        if dtype == numpy.float16:
            x = x.astype(numpy.float32)
        return utils.force_array(xp.linalg.det(x), dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        detx, = self.get_retained_outputs()
        gy, = grad_outputs
        # d det(A) / dA = det(A) A^-T
        if not _fast.needs_graph():
            xa = x.array
            gx = inv.inverse(xa.transpose((0, 2, 1)))
            gx *= (gy.array * detx.array)[:, None, None]
            return _fast.as_grad(gx),
        inv_xt = inv.batch_inv(x.transpose((0, 2, 1)))
        shape = inv_xt.shape
        gy = broadcast.broadcast_to(gy.reshape((shape[0], 1, 1)), shape)
        detx = broadcast.broadcast_to(detx.reshape((shape[0], 1, 1)), shape)
        return gy * detx * inv_xt,


def batch_det(a):
    """Determinants of a batch of square matrices.

    Args:
        a (Variable or ndarray): Array of shape `(m, n, n)`.

    Returns:
        Variable: Vector of the `m` determinants.
    """
    return BatchDet().apply((a,))[0]


def det(a):
    """Determinant of a single square matrix.

    Args:
        a (Variable or ndarray): Matrix of shape `(n, n)`.

    Returns:
        Variable: Scalar (0-d) determinant.
    """
    batched = reshape.reshape(a, (1,) + tuple(a.shape))
    return reshape.reshape(BatchDet().apply((batched,))[0], ())
