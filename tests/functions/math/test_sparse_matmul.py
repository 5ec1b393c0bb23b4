import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import check_grads


class Coo:
    """A minimal stand-in of ``chainer.utils.CooMatrix`` (data, row, col, shape, order)."""

    def __init__(self, data, row, col, shape, order='other'):
        self.data = data if isinstance(data, minichainer.Variable) else \
            minichainer.Variable(data, requires_grad=False)
        self.row, self.col, self.shape, self.order = row, col, shape, order


def to_coo_arrays(x, ldnz):
    """Pattern of a (batch of) dense matrices, padded with row = col = -1."""
    def one(m):
        r, c = numpy.nonzero(m)
        data = numpy.zeros(ldnz, m.dtype)
        row = numpy.full(ldnz, -1, numpy.int32)
        col = numpy.full(ldnz, -1, numpy.int32)
        data[:len(r)], row[:len(r)], col[:len(r)] = m[r, c], r, c
        return data, row, col
    if x.ndim == 2:
        return one(x)
    parts = [one(m) for m in x]
    return tuple(numpy.stack(p) for p in zip(*parts))


def sparse_dense(shape, dtype, seed):
    rng = numpy.random.RandomState(seed)
    x = rng.uniform(-1, 1, shape)
    x[rng.uniform(0, 1, shape) < 0.5] = 0
    return x.astype(dtype)


CASES = [
    # a_shape, b_shape, transa, transb, sparse side
    ((3, 4), (4, 2), False, False, 'a'),
    ((4, 3), (4, 2), True, False, 'a'),
    ((3, 4), (2, 4), False, True, 'a'),
    ((2, 3, 4), (2, 4, 5), False, False, 'a'),
    ((3, 4), (4, 2), False, False, 'b'),
    ((2, 3, 4), (2, 5, 4), False, True, 'b'),
]


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('a_shape,b_shape,transa,transb,side', CASES)
def test_sparse_matmul(a_shape, b_shape, transa, transb, side, dtype):
    a = sparse_dense(a_shape, dtype, 0) if side == 'a' else \
        numpy.random.RandomState(0).uniform(-1, 1, a_shape).astype(dtype)
    b = sparse_dense(b_shape, dtype, 1) if side == 'b' else \
        numpy.random.RandomState(1).uniform(-1, 1, b_shape).astype(dtype)
    sp = a if side == 'a' else b
    data, row, col = to_coo_arrays(sp, ldnz=sp.shape[-1] * sp.shape[-2] + 1)
    coo_shape = sp.shape[-2:]

    def op(x, y):
        if side == 'a':
            return F.sparse_matmul(Coo(x, row, col, coo_shape), y, transa, transb)
        return F.sparse_matmul(x, Coo(y, row, col, coo_shape), transa, transb)

    def mat(m, t):
        return m.swapaxes(-1, -2) if t else m

    expect = numpy.matmul(mat(a.astype(numpy.float64), transa),
                          mat(b.astype(numpy.float64), transb))
    inputs = (data, b) if side == 'a' else (a, data)
    y = op(*inputs)
    assert y.dtype == dtype and y.shape == expect.shape
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float16 else {'atol': 1e-6, 'rtol': 1e-5}
    numpy.testing.assert_allclose(y.array, expect, **tol)
    if dtype != numpy.float16:
        check_grads(op, inputs, dtype)


def test_padding_gets_no_gradient():
    dense = numpy.array([[0., 2.], [3., 0.]])
    data, row, col = to_coo_arrays(dense, ldnz=4)
    v = minichainer.Variable(data)
    y = F.sparse_matmul(Coo(v, row, col, (2, 2)), numpy.eye(2))
    F.sum(y).backward()
    numpy.testing.assert_array_equal(v.grad, [1., 1., 0., 0.])


def test_errors():
    dense = numpy.ones((2, 2), numpy.float32)
    data, row, col = to_coo_arrays(dense, 4)
    with pytest.raises(ValueError):
        F.sparse_matmul(dense, dense)
    with pytest.raises(type_check.InvalidType):
        F.sparse_matmul(Coo(data, row, col, (2, 2)), numpy.ones((3, 2), numpy.float32))
    with pytest.raises(ValueError):
        F.sparse_matmul(Coo(data, row, col[:2], (2, 2)), dense)
