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
    ('...i,i->', [(2, 3), (3,)]),
    ('ij,j->i', [(3, 4), (4,)]),
    ('iij->ji', [(2, 2, 3)]),
    ('ij,ij->ij', [(2, 3), (2, 3)]),
    ('i...,i->...', [(2, 3, 1), (2,)]),
]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('subscripts,shapes', CASES)
def test_einsum(subscripts, shapes, dtype):
    ops = tuple(uniform(s, dtype, seed=i) for i, s in enumerate(shapes))
    if '...' in subscripts and '->' in subscripts and \
            subscripts.split('->')[1] == '' and subscripts.startswith('...'):
        ref = lambda *xs: numpy.einsum(subscripts.replace('->', '->...'), *xs).sum()  # noqa
    else:
        ref = lambda *xs: numpy.einsum(subscripts, *xs)  # noqa
    check_op(lambda *xs: F.einsum(subscripts, *xs), ref, ops, dtype)


def test_einsum_broadcast_ellipsis_grad():
    a = uniform((2, 1, 3), numpy.float64, seed=0)
    b = uniform((4, 3), numpy.float64, seed=1)
    check_op(lambda x, y: F.einsum('...i,...i->...', x, y),
             lambda x, y: numpy.einsum('...i,...i->...', x, y), (a, b), numpy.float64)


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
