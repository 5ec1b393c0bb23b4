import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('slope', [0.2, -0.3])
def test_leaky_relu(dtype, slope):
    check_unary(lambda x: F.leaky_relu(x, slope=slope),
                lambda x: numpy.where(x > 0, x, slope * x), dtype)


def test_leaky_relu_default_slope():
    y = F.leaky_relu(numpy.array([-1., 2.], numpy.float32))
    numpy.testing.assert_allclose(y.array, [-0.2, 2.])


def test_leaky_relu_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.leaky_relu(numpy.arange(3))
