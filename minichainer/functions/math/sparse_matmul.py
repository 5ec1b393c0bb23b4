"""`sparse_matmul`: (batched) product of a COO sparse matrix and a dense one.

The CPU path is plain NumPy (Chainer uses SciPy there; SciPy is not needed here).
The sparse operand is a `chainer.utils.CooMatrix` (`data` Variable, `row`,
`col`, `shape`, `order`); entries whose row index is negative are padding.
"""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.utils import precision
from minichainer.utils import scatter
from minichainer.utils import type_check


def _coo_matmul(sp_data, sp_row, sp_col, sp_shape, sp_order, dn, transa, transb, transc,
                dtype=None):
    """`C = op(A) @ op(B)` (`op` transposes when asked), `A` sparse, `B` dense."""
    if dtype is None:
        dtype = numpy.result_type(sp_data.dtype, dn.dtype)
    if transa:
        a_row, a_col = sp_col, sp_row
        m, _ = sp_shape[1], sp_shape[0]
    else:
        a_row, a_col = sp_row, sp_col
        m, _ = sp_shape
    b = dn.swapaxes(-1, -2) if transb else dn
    xp = backend.get_array_module(b)
    work = precision.intermediate_dtype(dtype)   # float16 summed in float32
    n = b.shape[-1]
    valid = a_row >= 0
    if xp is not numpy:
        c = _coo_matmul_device(xp, sp_data, a_row, a_col, valid, b, m, work)
    elif b.ndim == 2:
        c = xp.zeros((m, n), work)
        r, k, d = a_row[valid], a_col[valid], sp_data[valid]
        scatter.scatter_add(c, r, d.astype(work)[:, None] * b[k].astype(work))
    else:
        c = xp.zeros((b.shape[0], m, n), work)
        bi, pi = xp.nonzero(valid)
        r, k, d = a_row[bi, pi], a_col[bi, pi], sp_data[bi, pi]
        scatter.scatter_add(c, (bi, r), d.astype(work)[:, None] * b[bi, k].astype(work))
    if transc:
        c = c.swapaxes(-1, -2)
    return c.astype(dtype, copy=False)


def _coo_matmul_device(xp, sp_data, a_row, a_col, valid, b, m, work):
    # On a GPU, no selection of the valid entries (its size would be read back): the
    # padding adds exact zeros to row 0.
    r = xp.where(valid, a_row, 0)
    k = xp.where(valid, a_col, 0)
    d = sp_data.astype(work)[..., None]
    if b.ndim == 2:
        c = xp.zeros((m, b.shape[-1]), work)
        scatter.scatter_add(c, r, xp.where(valid[:, None], d * b[k].astype(work), 0))
    else:
        c = xp.zeros((b.shape[0], m, b.shape[-1]), work)
        bi = xp.broadcast_to(xp.arange(b.shape[0])[:, None], valid.shape)
        scatter.scatter_add(c, (bi, r),
                            xp.where(valid[..., None], d * b[bi, k].astype(work), 0))
    return c


def _coo_matmul_gradsp(a, b, c_row, c_col, c_shape, transa, transb, transc, dtype=None):
    """Entries `(op(a) @ op(b))[row, col]` at the sparsity pattern (0 on padding)."""
    if dtype is None:
        dtype = numpy.result_type(a.dtype, b.dtype)
    a = a.swapaxes(-1, -2) if transa else a
    b = b.swapaxes(-1, -2) if transb else b
    rows, cols = (c_col, c_row) if transc else (c_row, c_col)
    xp = backend.get_array_module(a, b)
    work = precision.intermediate_dtype(dtype)   # float16 summed in float32
    valid = rows >= 0
    if xp is not numpy:   # every entry, the padding's set to 0 (no selection on a GPU)
        r = xp.where(valid, rows, 0)
        k = xp.where(valid, cols, 0)
        if a.ndim == 2:
            vals = (a[r, :].astype(work) * b[:, k].T.astype(work)).sum(axis=-1)
        else:
            bi = xp.broadcast_to(xp.arange(a.shape[0])[:, None], valid.shape)
            vals = (a[bi, r, :].astype(work) * b[bi, :, k].astype(work)).sum(axis=-1)
        return xp.where(valid, vals, 0).astype(dtype, copy=False)
    out = xp.zeros(rows.shape, dtype)
    if a.ndim == 2:
        r, k = rows[valid], cols[valid]
        out[valid] = (a[r, :].astype(work) * b[:, k].T.astype(work)).sum(axis=-1)
    else:
        bi, pi = xp.nonzero(valid)
        r, k = rows[bi, pi], cols[bi, pi]
        out[bi, pi] = (a[bi, r, :].astype(work) * b[bi, :, k].astype(work)).sum(axis=-1)
    return out


def _check_pattern(sp_row, sp_col, sp_shape):
    if sp_row.ndim != sp_col.ndim:
        raise ValueError('sparse_matmul: ndim of sp_row and sp_col must be the same, '
                         'got {} and {}'.format(sp_row.ndim, sp_col.ndim))
    if sp_row.ndim not in (1, 2):
        raise ValueError('sparse_matmul: ndim of sp_row and sp_col must be one or two, '
                         'got {}'.format(sp_row.ndim))
    if sp_row.shape != sp_col.shape:
        raise ValueError('sparse_matmul: shape of sp_row and sp_col must be the same, '
                         'got {} and {}'.format(sp_row.shape, sp_col.shape))
    if len(sp_shape) != 2:
        raise ValueError('sparse_matmul: len(sp_shape) must be two, got {}'.format(
            sp_shape))


class _CooPatternNode(function_node.FunctionNode):
    """Holds the COO sparsity pattern and the transpose flags of the sparse matmuls."""

    def __init__(self, sp_row, sp_col, sp_shape, sp_order='other',
                 transa=False, transb=False, transc=False, dtype=None):
        _check_pattern(sp_row, sp_col, sp_shape)
        self.sp_row = sp_row  # ((nb,) ldnz)
        self.sp_col = sp_col  # ((nb,) ldnz)
        # (_m, _k) for CooMatMul when transa is False; (_m, _n) for CooMatMulGradSP
        # when transc is False
        self.sp_shape = sp_shape
        self.sp_order = sp_order
        self.transa = transa
        self.transb = transb
        self.transc = transc
        self.dtype = dtype


class CooMatMul(_CooPatternNode):
    """`op(sparse) @ op(dense)` (optionally transposed result)."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('sp', 'dn'))
        sp_type, dn_type = in_types
        sp_k_axis = -2 if self.transa else -1
        dn_k_axis = -1 if self.transb else -2
        type_check.expect(
            sp_type.dtype.kind == 'f',
            dn_type.dtype.kind == 'f',
            dn_type.ndim >= 2,
            dn_type.ndim <= 3,
            sp_type.ndim == dn_type.ndim - 1,
            sp_type.shape[-1] == self.sp_row.shape[-1],
            self.sp_shape[sp_k_axis] == dn_type.shape[dn_k_axis],
        )
        if type_check.eval(dn_type.ndim) == 3:
            type_check.expect(
                sp_type.shape[0] == self.sp_row.shape[0],
                dn_type.shape[0] == self.sp_row.shape[0],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        sp, dn = inputs
        c = _coo_matmul(sp, self.sp_row, self.sp_col, self.sp_shape, self.sp_order, dn,
                        self.transa, self.transb, self.transc, self.dtype)
        return utils.force_array(c, self.dtype),

    def backward(self, indexes, grad_outputs):
        sp, dn = self.get_retained_inputs()
        g_c, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(CooMatMulGradSP(
                self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                self.transc, not self.transb, self.transa,
                dtype=sp.dtype).apply((g_c, dn))[0])
        if 1 in indexes:
            ret.append(CooMatMul(
                self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                not self.transa, self.transc, self.transb,
                dtype=dn.dtype).apply((sp, g_c))[0])
        return ret


class CooMatMulGradSP(_CooPatternNode):
    """`op(a) @ op(b)` evaluated at a sparsity pattern only (returns its data)."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('a', 'b'))
        a_type, b_type = in_types
        a_m_axis, a_k_axis = (-1, -2) if self.transa else (-2, -1)
        b_k_axis, b_n_axis = (-1, -2) if self.transb else (-2, -1)
        sp_m_axis, sp_n_axis = (-1, -2) if self.transc else (-2, -1)
        type_check.expect(
            a_type.dtype.kind == 'f',
            b_type.dtype.kind == 'f',
            a_type.ndim >= 2,
            a_type.ndim <= 3,
            a_type.ndim == b_type.ndim,
            a_type.shape[a_m_axis] == self.sp_shape[sp_m_axis],
            b_type.shape[b_n_axis] == self.sp_shape[sp_n_axis],
            a_type.shape[a_k_axis] == b_type.shape[b_k_axis],
        )
        if type_check.eval(a_type.ndim) == 3:
            type_check.expect(
                a_type.shape[0] == self.sp_row.shape[0],
                b_type.shape[0] == self.sp_row.shape[0],
            )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        a, b = inputs
        c = _coo_matmul_gradsp(a, b, self.sp_row, self.sp_col, self.sp_shape,
                               self.transa, self.transb, self.transc, self.dtype)
        return utils.force_array(c),

    def backward(self, indexes, grad_outputs):
        a, b = self.get_retained_inputs()
        g_sp, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(CooMatMul(
                self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                self.transc, not self.transb, self.transa,
                dtype=a.dtype).apply((g_sp, b))[0])
        if 1 in indexes:
            ret.append(CooMatMul(
                self.sp_row, self.sp_col, self.sp_shape, self.sp_order,
                not self.transc, self.transa, not self.transb,
                dtype=b.dtype).apply((g_sp, a))[0])
        return ret


def _is_coo(x):
    coo_cls = getattr(utils, 'CooMatrix', None)
    if coo_cls is not None and isinstance(x, coo_cls):
        return True
    # duck typing: any object carrying a COO pattern and a data Variable
    return all(hasattr(x, name) for name in ('data', 'row', 'col', 'shape', 'order')) \
        and not isinstance(x, numpy.ndarray) and not hasattr(x, 'creator')


def sparse_matmul(a, b, transa=False, transb=False):
    """Batched product of a sparse (COO) and a dense matrix.

    Supported: `C = A (sparse) @ B (dense)` and `C = A (dense) @ B (sparse)`.

    Args:
        a (Variable, ndarray or CooMatrix): Left operand.
        b (Variable, ndarray or CooMatrix): Right operand.
        transa (bool): Transpose each matrix of `a`.
        transb (bool): Transpose each matrix of `b`.

    Returns:
        Variable: The dense product.

    Raises:
        ValueError: neither or both operands are sparse.
    """
    if _is_coo(a) and not _is_coo(b):
        return CooMatMul(a.row, a.col, a.shape, a.order, transa=transa, transb=transb,
                         transc=False).apply((a.data, b))[0]
    if _is_coo(b) and not _is_coo(a):
        return CooMatMul(b.row, b.col, b.shape, b.order, transa=not transb,
                         transb=not transa, transc=True).apply((b.data, a))[0]
    raise ValueError(
        'sparse_matmul: exactly one of a and b must be a COO sparse matrix '
        '(chainer.utils.CooMatrix), got a: {} and b: {}'.format(
            type(a).__name__, type(b).__name__))
