import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform

CASES = [
    ('ij,jk->ik', [(2, 3), (3, 4)]),
    ('ij,ik,jkl->il', [(3, 2), (3, 4), (2, 4, 2)]),
    ('ii->i', [(3, 3)]),
    ('ii', [(3, 3)]),
    ('ij->', [(2, 3)]),
    ('i,j->ij', [(2,), (3,)]),
    ('...ij,...jk->...ik', [(2, 2, 3), (2, 3, 2)]),
    ('...j,...k,jkl', [(3, 2), (3, 4), (2, 4, 2)]),
    ('...i,i->', [(3,), (3,)]),  # an empty ellipsis may be summed over
    ('ij,j->i', [(3, 4), (4,)]),
    ('iij->ji', [(2, 2, 3)]),
    ('ij,ij->ij', [(2, 3), (2, 3)]),
    ('i...,i->...', [(2, 3, 1), (2,)]),
    ('i...j,jk...->k...i', [(4, 2, 3), (3, 5, 2)]),
    ('ii...,...jj', [(2, 2, 4), (4, 3, 3)]),
    ('iij,kkj', [(2, 2, 3), (4, 4, 3)]),
    (',ij->i', [(), (3, 4)]),
]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('subscripts,shapes', CASES)
def test_einsum(subscripts, shapes, dtype):
    ops = tuple(uniform(s, dtype, seed=i) for i, s in enumerate(shapes))
    ref = lambda *xs: numpy.einsum(subscripts, *xs)  # noqa
    check_op(lambda *xs: F.einsum(subscripts, *xs), ref, ops, dtype)


@pytest.mark.parametrize('subscripts,shapes', [
    ('...i,i->', [(2, 3), (3,)]),
    ('...ij->ij', [(2, 3, 4)]),
    ('ij...->ij', [(3, 4, 2)]),
    ('...->', [(2, 3)]),
])
def test_einsum_summing_over_nonempty_ellipsis_raises(subscripts, shapes):
    # Chainer 7 rejects it (NumPy 1.14 summed it only by accident)
    ops = tuple(numpy.ones(s, numpy.float32) for s in shapes)
    with pytest.raises(ValueError, match='ellipsis'):
        F.einsum(subscripts, *ops)


@pytest.mark.parametrize('shapes', [((2, 2), (1, 2)), ((2,), (1, 2)), ((2, 2), (3, 2))])
def test_einsum_does_not_broadcast_ellipsis(shapes):
    # as Chainer: the ellipsis must cover the same shape in every operand
    ops = [numpy.zeros(s, numpy.float32) for s in shapes]
    with pytest.raises(type_check.InvalidType):
        F.einsum('...i,...i', *ops)


@pytest.mark.parametrize('in_subs,out_sub,in_shapes,out_shape', [
    ('i', 'ij', [(3,)], (3, 4)),
    ('', 'i', [()], (3,)),
    (',i', 'ij', [(), (2,)], (2, 3)),
    (',ij', 'i', [(), (3, 4)], (3,)),
    ('i', 'ii', [(3,)], (3, 3)),
])
def test_diag_einsum(in_subs, out_sub, in_shapes, out_shape):
    from minichainer.functions.math.einsum import DiagEinSum
    ops = tuple(uniform(s, numpy.float64, seed=i) for i, s in enumerate(in_shapes))

    def op(*xs):
        return DiagEinSum(in_subs=in_subs, out_sub=out_sub, out_shape=out_shape).apply(xs)[0]

    def ref(*xs):
        y = numpy.zeros(out_shape)
        if out_sub == 'ii':
            y[numpy.arange(3), numpy.arange(3)] = xs[0]
            return y
        letters = ''.join(c for c in out_sub if c in in_subs)
        val = numpy.einsum('{}->{}'.format(in_subs, letters), *xs)
        return y + val.reshape(val.shape + (1,) * (len(out_shape) - val.ndim))

    check_op(op, ref, ops, numpy.float64)


def test_einsum_sublist_form():
    x1 = uniform((3, 4), numpy.float32, seed=0)
    x2 = uniform((3, 5), numpy.float32, seed=1)
    w = uniform((4, 5, 6), numpy.float32, seed=2)
    y = F.einsum(x1, [0, 1], x2, [0, 2], w, [1, 2, 3], [0, 3])
    expect = numpy.einsum('ij,ik,jkl->il', x1, x2, w)
    numpy.testing.assert_allclose(y.array, expect, rtol=1e-5)
    y2 = F.einsum(x1, [Ellipsis, 1], x2, [Ellipsis, 2], w, [1, 2, 3])
    numpy.testing.assert_allclose(y2.array, expect, rtol=1e-5)


def test_einsum_errors():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError):
        F.einsum('ij,jk', a)
    with pytest.raises(ValueError):
        F.einsum('ij->k', a)
    with pytest.raises(ValueError):
        F.einsum('i$', a)
    with pytest.raises(ValueError):
        F.einsum('ij->i->j', a)
    with pytest.raises(ValueError):
        F.einsum()
    with pytest.raises(type_check.InvalidType):
        F.einsum('ij,ij->i', a, numpy.ones((2, 4), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.einsum('ij->i', numpy.ones((2, 3), numpy.int32))
