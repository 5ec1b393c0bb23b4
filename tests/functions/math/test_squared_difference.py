import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_squared_difference(dtype):
    x1 = uniform((3, 4), dtype, seed=0)
    x2 = uniform((3, 4), dtype, seed=1)
    check_op(F.squared_difference, lambda a, b: (a - b) ** 2, (x1, x2), dtype)


def test_squared_difference_errors():
    with pytest.raises(type_check.InvalidType):
        F.squared_difference(numpy.ones(3, numpy.float32), numpy.ones(2, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.squared_difference(numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64))
