import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('axis', [None, 0, 1, -2])
def test_cumprod(axis, dtype):
    x = uniform((3, 4), dtype, 0.5, 1.5)
    check_op(lambda v: F.cumprod(v, axis=axis), lambda v: numpy.cumprod(v, axis=axis),
             (x,), dtype)


def test_cumprod_grad_with_zeros():
    x = numpy.array([[2., 0., 3., 0.5], [0., 1.5, 0., 2.]])
    check_op(lambda v: F.cumprod(v, axis=1), lambda v: numpy.cumprod(v, axis=1), (x,),
             numpy.float64)


def test_cumprod_single_element_and_empty():
    v = minichainer.Variable(numpy.array([[2.], [3.]]))
    y = F.cumprod(v, axis=1)
    y.grad = numpy.ones((2, 1))
    y.backward()
    numpy.testing.assert_array_equal(v.grad, [[1.], [1.]])
    assert F.cumprod(numpy.zeros((2, 0)), axis=1).shape == (2, 0)


def test_cumprod_errors():
    with pytest.raises(type_check.InvalidType):
        F.cumprod(numpy.ones((2, 2), numpy.float32), axis=2)
    with pytest.raises(TypeError):
        F.cumprod(numpy.ones((2, 2), numpy.float32), axis=(0, 1))
