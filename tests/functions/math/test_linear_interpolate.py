import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_linear_interpolate(dtype):
    p = uniform((3, 4), dtype, 0., 1., seed=0)
    x = uniform((3, 4), dtype, seed=1)
    y = uniform((3, 4), dtype, seed=2)
    check_op(F.linear_interpolate, lambda p, x, y: p * x + (1 - p) * y, (p, x, y), dtype)


def test_linear_interpolate_errors():
    a = numpy.ones(3, numpy.float32)
    with pytest.raises(type_check.InvalidType):
        F.linear_interpolate(a, a, numpy.ones(2, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.linear_interpolate(a, a, numpy.ones(3, numpy.float64))
