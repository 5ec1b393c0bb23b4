"""Matrix products: `matmul` (NumPy `matmul` semantics with `transa`/`transb`) and
the deprecated `batch_matmul`."""
import warnings

from minichainer import backend
from minichainer import utils
from minichainer.function_node import FunctionNode
from minichainer.functions.array import cast
from minichainer.functions.array import reshape
from minichainer.functions.array import transpose
from minichainer.functions.math import sum as sum_mod
from minichainer.utils import type_check


def _swap_last(x, xp):
    return xp.swapaxes(x, -1, -2)


class MatMul(FunctionNode):
    """Matrix product of two arrays of ndim >= 2 (batch axes broadcast)."""

    def __init__(self, transa=False, transb=False, transc=False, dtype=None):
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = dtype

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 2)
        type_check.argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
            a_type.ndim >= 2,
            b_type.ndim >= 2,
        )
        a_idx = -2 if self.transa else -1
        b_idx = -1 if self.transb else -2
        type_check.expect(a_type.shape[a_idx] == b_type.shape[b_idx])
        type_check.expect_broadcast_shapes(a_type.shape[:-2], b_type.shape[:-2])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        xp = backend.get_array_module(a)
        if self.transa:
            a = _swap_last(a, xp)
        if self.transb:
            b = _swap_last(b, xp)
        y = xp.matmul(a, b)
        if self.transc:
            y = _swap_last(y, xp)
        if self.dtype is not None and y.dtype != self.dtype:
            y = y.astype(self.dtype)
        return utils.force_array(y),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        gy, = grad_outputs
        if self.transc:
            axes = tuple(range(gy.ndim - 2)) + (gy.ndim - 1, gy.ndim - 2)
            gy = transpose.transpose(gy, axes)
        ret = []
        if 0 in indexes:
            if self.transa:
                ga = matmul(b, gy, transa=self.transb, transb=True)
            else:
                ga = matmul(gy, b, transb=not self.transb)
            if ga.dtype != a.dtype:
                ga = cast.cast(ga, a.dtype)
            ret.append(sum_mod.sum_to(ga, a.shape))
        if 1 in indexes:
            if self.transb:
                gb = matmul(gy, a, transa=True, transb=self.transa)
            else:
                gb = matmul(a, gy, transa=not self.transa)
            if gb.dtype != b.dtype:
                gb = cast.cast(gb, b.dtype)
            ret.append(sum_mod.sum_to(gb, b.shape))
        return tuple(ret)


def matmul(a, b, transa=False, transb=False):
    """Matrix product `a @ b` with optional transposition of the last two axes.

    1-D operands behave as in `numpy.matmul` (`transa`/`transb` do nothing to them);
    operands of ndim > 2 are stacks of matrices broadcast along the leading axes.
    """
    a_ndim, b_ndim = a.ndim, b.ndim
    if a_ndim == 0 or b_ndim == 0:
        raise type_check.InvalidType(
            'a.ndim >= 1 and b.ndim >= 1 (matmul operands)',
            'a.shape = {}, b.shape = {}'.format(a.shape, b.shape))
    if a_ndim == 1:
        a = reshape.reshape(a, (1,) + a.shape)
        transa = False
    if b_ndim == 1:
        b = reshape.reshape(b, b.shape + (1,))
        transb = False
    y = MatMul(transa=transa, transb=transb).apply((a, b))[0]
    if a_ndim == 1 and b_ndim == 1:
        return reshape.reshape(y, ())
    if a_ndim == 1:
        return reshape.reshape(y, y.shape[:-2] + y.shape[-1:])
    if b_ndim == 1:
        return reshape.reshape(y, y.shape[:-1])
    return y


def _as_batch_mat(x):
    return reshape.reshape(x, (x.shape[0], x.shape[1], -1))


def batch_matmul(a, b, transa=False, transb=False):
    """Batch of matrix products (deprecated in Chainer: use
    [`matmul`][minichainer.functions.math.matmul.matmul]).

    A 2-D operand of shape (B, N) is treated as B matrices of shape (N, 1).
    """
    warnings.warn('batch_matmul is deprecated. Use matmul instead.', DeprecationWarning)
    return MatMul(transa=transa, transb=transb).apply((_as_batch_mat(a), _as_batch_mat(b)))[0]
