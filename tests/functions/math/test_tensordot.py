import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform

CASES = [
    ((2, 3, 4), (3, 4, 2), 2),
    ((2, 3, 4), (4, 2), 1),
    ((2, 3), (3, 2), 0),
    ((2, 3, 4), (4, 3, 2), ([1, 2], [1, 0])),
    ((3, 2, 4), (2, 3), ([1, 0], [0, 1])),
    ((2, 3, 4), (5, 4), (2, 1)),
    ((2, 3, 4), (2, 4), ([-1, 0], [-1, 0])),
    ((2, 3, 4, 5), (2, 3, 6), ([1, 0], [1, 0])),
    ((2,), (3,), 0),
]


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('a_shape,b_shape,axes', CASES)
def test_tensordot(a_shape, b_shape, axes, dtype):
    a = uniform(a_shape, dtype, seed=0)
    b = uniform(b_shape, dtype, seed=1)
    check_op(lambda x, y: F.tensordot(x, y, axes=axes),
             lambda x, y: numpy.tensordot(x, y, axes=axes), (a, b), dtype)


def test_tensordot_errors():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError):
        F.tensordot(a, numpy.ones((4, 2), numpy.float32), axes=1)
    with pytest.raises(ValueError):
        F.tensordot(a, a, axes=([0, 1], [0]))
    with pytest.raises(ValueError):
        F.tensordot(a, a, axes=3)
    with pytest.raises(ValueError):
        F.tensordot(a, a, axes=([0], [0], [1]))
    with pytest.raises(ValueError):
        F.tensordot(a, a, axes=([3], [0]))
    with pytest.raises(ValueError):
        F.tensordot(a, a, axes=((0, 1, 2, 3), (0, 1, 2, 3)))
    with pytest.raises(ValueError):
        F.tensordot(a, a, axes=())
    with pytest.raises(TypeError):
        F.tensordot(a, a, axes=1.5)
    with pytest.raises(type_check.InvalidType):
        F.tensordot(numpy.ones((2, 2), numpy.int32), numpy.ones((2, 2), numpy.int32))
