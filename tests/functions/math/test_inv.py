import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import check_op


def well_conditioned(shape, dtype, seed=0):
    rng = numpy.random.RandomState(seed)
    a = rng.uniform(-0.5, 0.5, shape) + numpy.eye(shape[-1]) * 2
    return a.astype(dtype)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_inv(dtype):
    check_op(F.inv, numpy.linalg.inv, (well_conditioned((3, 3), dtype),), dtype)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_batch_inv(dtype):
    check_op(F.batch_inv, numpy.linalg.inv, (well_conditioned((2, 3, 3), dtype),), dtype)


def test_inv_float16():
    a = well_conditioned((3, 3), numpy.float16)
    y = F.inv(a)
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(y.array, numpy.linalg.inv(a.astype(numpy.float64)),
                                  rtol=1e-2, atol=1e-3)


def test_singular_raises_value_error():
    with pytest.raises(ValueError, match='singular'):
        F.inv(numpy.zeros((2, 2), numpy.float32))
    with pytest.raises(ValueError, match='singular'):
        F.batch_inv(numpy.zeros((1, 2, 2), numpy.float32))


def test_inv_errors():
    with pytest.raises(type_check.InvalidType):
        F.inv(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.inv(numpy.ones((2, 2, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.batch_inv(numpy.ones((2, 2), numpy.float32))
