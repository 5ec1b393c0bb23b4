import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('shape', [(3, 4), (2, 3, 2)])
def test_batch_l2_norm_squared(shape, dtype):
    check_op(F.batch_l2_norm_squared,
             lambda x: (x.reshape(len(x), -1) ** 2).sum(axis=1),
             (uniform(shape, dtype),), dtype)


def test_batch_l2_norm_squared_errors():
    with pytest.raises(type_check.InvalidType):
        F.batch_l2_norm_squared(numpy.ones(3, numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.batch_l2_norm_squared(numpy.ones((2, 3), numpy.int32))
