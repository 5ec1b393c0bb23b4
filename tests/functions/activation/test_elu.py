import numpy
import pytest

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
