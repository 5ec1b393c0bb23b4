import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform

CASES = [
    (F.exp, numpy.exp, -1., 1.),
    (F.log, numpy.log, 0.5, 2.),
    (F.log2, numpy.log2, 0.5, 2.),
    (F.log10, numpy.log10, 0.5, 2.),
]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('func,ref,low,high', CASES)
def test_forward_backward(func, ref, low, high, dtype):
    check_op(func, ref, (uniform((3, 2), dtype, low, high),), dtype)


@pytest.mark.parametrize('func', [F.exp, F.log, F.log2, F.log10])
def test_zero_dim(func):
    y = func(numpy.array(1.5, numpy.float32))
    assert y.shape == () and isinstance(y.array, numpy.ndarray)


@pytest.mark.parametrize('func', [F.exp, F.log, F.log2, F.log10])
def test_rejects_int(func):
    with pytest.raises(type_check.InvalidType):
        func(numpy.arange(3, dtype=numpy.int32))


def test_labels():
    from minichainer.functions.math import exponential
    assert exponential.Exp().label == 'exp'
    assert exponential.Log10().label == 'log10'


def test_exp_grad_is_output():
    x = minichainer.Variable(numpy.array([0., 1.], numpy.float32))
    y = F.exp(x)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.exp([0., 1.]), rtol=1e-6)
