import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
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


def test_relu_gradient_keeps_a_channel_major_layout():
    # a convolution's output lies in (c, n, h, w) memory order; the gradient keeps it
    rng = numpy.random.RandomState(2)
    x = rng.uniform(0.1, 1, (3, 2, 4, 5)) * rng.choice([-1, 1], (3, 2, 4, 5))  # no kink
    x = numpy.ascontiguousarray(x).swapaxes(0, 1)
    v = minichainer.Variable(x)
    y = F.relu(v)
    gy = rng.uniform(-1, 1, y.shape)
    y.grad = gy
    y.backward()
    numpy.testing.assert_array_equal(v.grad, gy * (x > 0))
    assert v.grad.swapaxes(0, 1).flags.c_contiguous
    gradient_check.check_backward(F.relu, x, gy, atol=1e-7, rtol=1e-6)
