import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_sqrt(dtype):
    check_op(F.sqrt, numpy.sqrt, (uniform((3, 2), dtype, 0.5, 2.),), dtype)


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_rsqrt(dtype):
    check_op(F.rsqrt, lambda x: 1 / numpy.sqrt(x), (uniform((3, 2), dtype, 0.5, 2.),),
             dtype)


def test_sqrt_negative_is_nan():
    with numpy.errstate(invalid='ignore'):
        y = F.sqrt(numpy.array([-1.], numpy.float32))
    assert numpy.isnan(y.array[0])


def test_sqrt_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.sqrt(numpy.arange(3))
