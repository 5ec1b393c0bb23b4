import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


def ref(x, axis=None):
    m = numpy.max(x, axis=axis, keepdims=True)
    return numpy.log(numpy.exp(x - m).sum(axis=axis)) + m.reshape(
        numpy.log(numpy.exp(x - m).sum(axis=axis)).shape)


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('axis', [None, 0, -1, (0, 2)])
def test_logsumexp(axis, dtype):
    x = uniform((3, 2, 2), dtype, -2., 2.)
    check_op(lambda v: F.logsumexp(v, axis=axis), lambda v: ref(v, axis), (x,), dtype)


def test_logsumexp_no_overflow():
    y = F.logsumexp(numpy.array([1e4, 1e4], numpy.float32))
    numpy.testing.assert_allclose(y.array, 1e4 + numpy.log(2.), rtol=1e-6)


def test_logsumexp_errors():
    with pytest.raises(ValueError):
        F.logsumexp(numpy.ones((2, 2), numpy.float32), axis=(0, 0))
    with pytest.raises(TypeError):
        F.logsumexp(numpy.ones((2, 2), numpy.float32), axis='0')
    with pytest.raises(type_check.InvalidType):
        F.logsumexp(numpy.ones((2, 2), numpy.float32), axis=-3)
