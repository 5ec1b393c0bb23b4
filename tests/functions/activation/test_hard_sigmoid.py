import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_hard_sigmoid(dtype):
    check_unary(F.hard_sigmoid, lambda x: numpy.clip(0.2 * x + 0.5, 0, 1), dtype,
                shape=(4, 5), low=-4, high=4, kinks=(-2.5, 2.5))


def test_hard_sigmoid_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.hard_sigmoid(numpy.arange(3))
