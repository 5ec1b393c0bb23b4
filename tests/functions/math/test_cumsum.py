import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('axis', [None, 0, 1, -1])
def test_cumsum(axis, dtype):
    x = uniform((3, 4), dtype)
    check_op(lambda v: F.cumsum(v, axis=axis), lambda v: numpy.cumsum(v, axis=axis),
             (x,), dtype)


def test_cumsum_errors():
    with pytest.raises(type_check.InvalidType):
        F.cumsum(numpy.ones((2, 2), numpy.float32), axis=2)
    with pytest.raises(TypeError):
        F.cumsum(numpy.ones((2, 2), numpy.float32), axis=(0, 1))
    with pytest.raises(type_check.InvalidType):
        F.cumsum(numpy.arange(3))
