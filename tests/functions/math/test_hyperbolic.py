import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('func,ref', [(F.sinh, numpy.sinh), (F.cosh, numpy.cosh)])
def test_hyperbolic(func, ref, dtype):
    check_op(func, ref, (uniform((3, 2), dtype, -2., 2.),), dtype)


@pytest.mark.parametrize('func', [F.sinh, F.cosh])
def test_rejects_int(func):
    with pytest.raises(type_check.InvalidType):
        func(numpy.arange(3))
