import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_log1p(dtype):
    check_op(F.log1p, numpy.log1p, (uniform((3, 2), dtype, -0.5, 1.),), dtype)


def test_log1p_accurate_near_zero():
    y = F.log1p(numpy.array([1e-12], numpy.float64))
    numpy.testing.assert_allclose(y.array, [1e-12], rtol=1e-10)


def test_log1p_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.log1p(numpy.arange(3))
