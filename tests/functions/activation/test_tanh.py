import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_tanh(dtype):
    check_unary(F.tanh, numpy.tanh, dtype, low=-2, high=2, kinks=())


def test_tanh_0dim():
    y = F.tanh(numpy.array(0.5, numpy.float32))
    assert y.shape == ()
    numpy.testing.assert_allclose(y.array, numpy.tanh(0.5), rtol=1e-6)


def test_tanh_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.tanh(numpy.arange(3))
