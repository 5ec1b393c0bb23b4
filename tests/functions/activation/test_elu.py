import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


def _elu(x, alpha):
    return numpy.where(x > 0, x, alpha * numpy.expm1(x))


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('alpha', [1.0, 0.5, -0.25])
def test_elu(dtype, alpha):
    check_unary(lambda x: F.elu(x, alpha=alpha), lambda x: _elu(x, alpha), dtype)



@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('alpha', [1.0, 0.5, 2.0, -0.25])
def test_elu_equals_chainers_masked_form_on_special_values(dtype, alpha):
    # Chainer: y = x.copy(); y[x <= 0] = alpha * expm1(y[x <= 0]); the derivative
    # 1 where x > 0 (y > 0 for alpha >= 0) else y + alpha
    x = numpy.random.RandomState(3).uniform(-6, 6, 999).astype(dtype)
    x[:9] = [0.0, -0.0, numpy.inf, -numpy.inf, numpy.nan, 1e-4, -1e-4, -40, 40]
    expect = x.copy()
    neg = expect <= 0
    expect[neg] = alpha * numpy.expm1(expect[neg])
    v = minichainer.Variable(x)
    y = F.elu(v, alpha=alpha)
    numpy.testing.assert_array_equal(y.array, expect)
    assert y.dtype == dtype
    gy = numpy.random.RandomState(4).uniform(-1, 1, x.shape).astype(dtype)
    y.grad = gy
    y.backward()
    slope = expect + dtype(alpha)
    slope[x > 0] = 1
    numpy.testing.assert_array_equal(v.grad, slope * gy)


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_selu(dtype):
    alpha = 1.6732632423543772848170429916717
    scale = 1.0507009873554804934193349852946
    check_unary(F.selu, lambda x: scale * _elu(x, alpha), dtype)


def test_selu_custom_params():
    x = numpy.array([-1., 2.], numpy.float64)
    numpy.testing.assert_allclose(F.selu(x, alpha=2., scale=3.).array,
                                  3 * _elu(x, 2.))


def test_elu_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.elu(numpy.arange(3))
