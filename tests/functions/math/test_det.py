import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import check_op


def well_conditioned(shape, dtype, seed=0):
    rng = numpy.random.RandomState(seed)
    a = rng.uniform(-0.5, 0.5, shape) + numpy.eye(shape[-1]) * 2
    return a.astype(dtype)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_det(dtype):
    check_op(F.det, numpy.linalg.det, (well_conditioned((3, 3), dtype),), dtype)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_batch_det(dtype):
    check_op(F.batch_det, numpy.linalg.det, (well_conditioned((2, 3, 3), dtype),), dtype)


def test_det_float16_computed_in_float32():
    a = well_conditioned((3, 3), numpy.float16)
    y = F.det(a)
    assert y.dtype == numpy.float16
    numpy.testing.assert_allclose(y.array, numpy.linalg.det(a.astype(numpy.float64)),
                                  rtol=1e-2)


def test_det_grad_is_det_times_inverse_transpose():
    a = minichainer.Variable(well_conditioned((3, 3), numpy.float64))
    F.det(a).backward()
    expect = numpy.linalg.det(a.array) * numpy.linalg.inv(a.array).T
    numpy.testing.assert_allclose(a.grad, expect, rtol=1e-10)


def test_det_errors():
    with pytest.raises(type_check.InvalidType):
        F.batch_det(numpy.ones((2, 3, 2), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.batch_det(numpy.ones((3, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.det(numpy.ones((2, 2), numpy.int32))
