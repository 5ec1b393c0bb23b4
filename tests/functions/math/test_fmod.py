import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_fmod(dtype):
    rng = numpy.random.RandomState(0)
    d = rng.uniform(0.5, 1.5, (3, 4)) * rng.choice([-1, 1], (3, 4))
    q = rng.randint(-3, 4, (3, 4))
    # x = q * d + r with the remainder r well inside (0, |d|): away from the jumps
    x = q * d + numpy.sign(q + 0.5) * numpy.abs(d) * rng.uniform(0.3, 0.7, (3, 4))
    check_op(F.fmod, numpy.fmod, (x.astype(dtype), d.astype(dtype)), dtype,
             double=True)


def test_fmod_errors():
    with pytest.raises(type_check.InvalidType):
        F.fmod(numpy.ones(3, numpy.float32), numpy.ones(3, numpy.float64))
    with pytest.raises(type_check.InvalidType):
        F.fmod(numpy.ones(3, numpy.int32), numpy.ones(3, numpy.int32))
