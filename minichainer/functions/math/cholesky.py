"""`cholesky`: Cholesky decomposition of a symmetric positive-definite matrix."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.math import inv
from minichainer.functions.math import matmul
from minichainer.utils import type_check


class Cholesky(function_node.FunctionNode):
    """Lower-triangular `L` with `L L^T = a`."""

    @property
    def label(self):
        return 'cholesky'

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            a_type.ndim == 2,
            a_type.shape[0] == a_type.shape[1],
        )

    def forward(self, inputs):
        a, = inputs
        xp = backend.get_array_module(a)
        self.retain_outputs((0,))
        work = a.astype(numpy.float32) if a.dtype == numpy.float16 else a
        # a matrix that is not positive definite raises numpy.linalg.LinAlgError
        # (a ValueError), as Chainer
        y = xp.linalg.cholesky(work)
        return utils.force_array(y, dtype=a.dtype),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        y, = self.get_retained_outputs()
        xp = backend.get_array_module(y.array)
        n = y.shape[0]
        dtype = y.dtype
        y_inv = inv.inv(y)
        # Phi(A) takes the lower triangle and halves the diagonal.
        mask = xp.tri(n, dtype=dtype) - 0.5 * xp.eye(n, dtype=dtype)
        phi = matmul.matmul(y, gy, transa=True) * mask
        s = matmul.matmul(matmul.matmul(y_inv, phi, transa=True), y_inv)
        # symmetric gradient, as Chainer 7.8.1
        return 0.5 * (s + s.T),


def cholesky(a):
    """Cholesky decomposition of a symmetric positive-definite matrix.

    Args:
        a (Variable or ndarray): Matrix of shape `(n, n)`.

    Returns:
        Variable: Lower-triangular factor `L` with `L L^T = a`.

    Raises:
        numpy.linalg.LinAlgError: the matrix is not positive definite.
    """
    return Cholesky().apply((a,))[0]
