import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_expm1(dtype):
    check_op(F.expm1, numpy.expm1, (uniform((3, 2), dtype),), dtype)


def test_expm1_accurate_near_zero():
    y = F.expm1(numpy.array([1e-10], numpy.float64))
    numpy.testing.assert_allclose(y.array, [1e-10], rtol=1e-9)


def test_expm1_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.expm1(numpy.arange(3))
