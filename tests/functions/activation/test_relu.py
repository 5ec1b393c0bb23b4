import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_relu(dtype):
    check_unary(F.relu, lambda x: numpy.maximum(x, 0), dtype)


def test_relu_variable_input_and_zero_grad_at_negative():
    x = minichainer.Variable(numpy.array([-1., 0., 2.], numpy.float32))
    y = F.relu(x)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [0., 0., 1.])


def test_relu_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.relu(numpy.arange(3, dtype=numpy.int32))
