import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('beta', [1.0, 2.0])
def test_softplus(dtype, beta):
    check_unary(lambda x: F.softplus(x, beta=beta),
                lambda x: numpy.log1p(numpy.exp(beta * x)) / beta, dtype,
                low=-2, high=2, kinks=())


def test_softplus_large_input_is_stable():
    y = F.softplus(numpy.array([-1000., 1000.], numpy.float32))
    numpy.testing.assert_allclose(y.array, [0., 1000.])


def test_softplus_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.softplus(numpy.arange(3))
