"""`inv` and `batch_inv`: matrix inverse."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions import _fast
from minichainer.functions.math import matmul
from minichainer.utils import type_check


def inverse(a):
    """Inverse of (a batch of) square matrices; float16 is computed in float32."""
    xp = backend.get_array_module(a)
    dtype = a.dtype
    if dtype == numpy.float16:
        a = a.astype(numpy.float32)
    try:
        inv_a = xp.linalg.inv(a)
    except numpy.linalg.LinAlgError:
        raise ValueError('Input has singular matrices.') from None
    return utils.force_array(inv_a, dtype)


def _inverse_grad(invx, gy):
    """`-A^-T gy A^-T` for (batches of) matrices, computed in one go."""
    xp = backend.get_array_module(invx)
    inv_t = xp.swapaxes(invx, -1, -2)
    gx = xp.matmul(xp.matmul(inv_t, gy), inv_t)
    xp.negative(gx, out=gx)
    return gx


class _Inverse(function_node.FunctionNode):
    """Forward and backward shared by `Inv` and `BatchInv`."""

    def forward(self, inputs):
        self.retain_outputs((0,))
        return inverse(inputs[0]),

    def backward(self, indexes, grad_outputs):
        invx, = self.get_retained_outputs()
        # d(A^-1) = -A^-1 dA A^-1, so gA = -A^-T gY A^-T.
        if not _fast.needs_graph():
            return _fast.as_grad(_inverse_grad(invx.array, grad_outputs[0].array)),
        gx = matmul.matmul(matmul.matmul(-invx, grad_outputs[0], transa=True), invx, transb=True)
        return gx,


class Inv(_Inverse):
    """Inverse of a square matrix."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(a_type.dtype.kind == 'f')
        # Only 2D array shapes allowed
        type_check.expect(a_type.ndim == 2)
        # Matrix inversion only allowed for square matrices
        type_check.expect(a_type.shape[0] == a_type.shape[1])


class BatchInv(_Inverse):
    """Inverse of every matrix of a batch `(m, n, n)`."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a',))
        a_type, = in_types
        type_check.expect(a_type.dtype.kind == 'f')
        # Only a minibatch of 2D array shapes allowed
        type_check.expect(a_type.ndim == 3)
        # Matrix inversion only allowed for square matrices
        type_check.expect(a_type.shape[-1] == a_type.shape[-2])


def inv(a):
    """Inverse of a square matrix.

    Args:
        a (Variable or ndarray): Matrix of shape `(n, n)`.

    Returns:
        Variable: Matrix inverse of `a`.

    Raises:
        ValueError: the matrix is singular.
    """
    return Inv().apply((a,))[0]


def batch_inv(a):
    """Inverse of every matrix of a batch.

    Args:
        a (Variable or ndarray): Array of shape `(m, n, n)`.

    Returns:
        Variable: Inverses, shape `(m, n, n)`.

    Raises:
        ValueError: a matrix of the batch is singular.
    """
    return BatchInv().apply((a,))[0]
