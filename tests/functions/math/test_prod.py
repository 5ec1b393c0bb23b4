import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform

AXES = [(None, False), (0, False), (-1, True), ((0, 2), False), ((2, 0), True)]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('axis,keepdims', AXES)
def test_prod(axis, keepdims, dtype):
    x = uniform((2, 3, 2), dtype, 0.5, 1.5)
    check_op(lambda v: F.prod(v, axis=axis, keepdims=keepdims),
             lambda v: numpy.prod(v, axis=axis, keepdims=keepdims), (x,), dtype)


@pytest.mark.parametrize('n_zeros', [1, 2])
def test_prod_grad_with_zeros(n_zeros):
    x = numpy.array([2., 3., 4., 5.])
    x[:n_zeros] = 0
    check_op(lambda v: F.prod(v), numpy.prod, (x,), numpy.float64)
    v = minichainer.Variable(x)
    F.prod(v).backward()
    expect = [numpy.prod(numpy.delete(x, i)) for i in range(4)]
    numpy.testing.assert_allclose(v.grad, expect)


def test_prod_zero_dim():
    x = minichainer.Variable(numpy.array(3., numpy.float32))
    y = F.prod(x)
    y.backward()
    assert y.array == 3. and x.grad == 1.


def test_prod_errors():
    with pytest.raises(type_check.InvalidType):
        F.prod(numpy.arange(3))
    with pytest.raises(ValueError):
        F.prod(numpy.ones((2, 2), numpy.float32), axis=(1, 1))
    with pytest.raises(type_check.InvalidType):
        F.prod(numpy.ones((2, 2), numpy.float32), axis=2)
