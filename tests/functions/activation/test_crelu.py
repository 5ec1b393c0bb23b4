import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('axis', [1, 0, -1])
def test_crelu(dtype, axis):
    check_unary(lambda x: F.crelu(x, axis=axis),
                lambda x: numpy.concatenate(
                    (numpy.maximum(x, 0), numpy.maximum(-x, 0)), axis=axis),
                dtype, shape=(2, 3, 2))


def test_crelu_axis_must_be_int():
    with pytest.raises(TypeError):
        F.crelu(numpy.zeros((2, 3), numpy.float32), axis=1.0)


def test_crelu_axis_out_of_range():
    with pytest.raises(type_check.InvalidType):
        F.crelu(numpy.zeros((2, 3), numpy.float32), axis=2)
