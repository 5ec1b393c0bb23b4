import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_clipped_relu(dtype):
    check_unary(lambda x: F.clipped_relu(x, 0.75),
                lambda x: numpy.clip(x, 0, 0.75), dtype, kinks=(0., 0.75))


def test_clipped_relu_default_z():
    x = numpy.array([-1., 5., 30.], numpy.float32)
    numpy.testing.assert_array_equal(F.clipped_relu(x).array, [0., 5., 20.])


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
def test_relu6(dtype):
    check_unary(F.relu6, lambda x: numpy.clip(x, 0, 6), dtype, low=-8, high=8,
                kinks=(0., 6.))


def test_clipped_relu_z_must_be_float():
    with pytest.raises(TypeError):
        F.clipped_relu(numpy.zeros(3, numpy.float32), 2)


def test_clipped_relu_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.clipped_relu(numpy.arange(3), 1.0)
