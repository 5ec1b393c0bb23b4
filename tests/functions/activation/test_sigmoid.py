import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_sigmoid(dtype):
    check_unary(F.sigmoid, lambda x: 1 / (1 + numpy.exp(-x)), dtype, low=-3, high=3,
                kinks=())


def test_sigmoid_no_overflow():
    with numpy.errstate(over='raise'):
        y = F.sigmoid(numpy.array([-1e4, 1e4], numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0., 1.])


def test_sigmoid_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.sigmoid(numpy.arange(3))
