import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_arctanh(dtype):
    check_op(F.arctanh, numpy.arctanh, (uniform((3, 2), dtype, -0.8, 0.8),), dtype)


def test_arctanh_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.arctanh(numpy.arange(3))
