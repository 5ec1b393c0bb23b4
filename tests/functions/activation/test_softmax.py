import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


def _softmax(x, axis):
    e = numpy.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('axis', [0, 1, -1])
def test_softmax(dtype, axis):
    check_unary(lambda x: F.softmax(x, axis=axis), lambda x: _softmax(x, axis), dtype,
                shape=(2, 3, 4), kinks=())


def test_softmax_default_axis_is_1():
    x = numpy.random.RandomState(0).randn(2, 3, 4).astype(numpy.float32)
    numpy.testing.assert_allclose(F.softmax(x).array, _softmax(x, 1), rtol=1e-5)


def test_softmax_large_logits():
    x = numpy.array([[1e4, -1e4, 0.]], numpy.float32)
    y = F.softmax(x).array
    assert numpy.isfinite(y).all()
    numpy.testing.assert_allclose(y, [[1., 0., 0.]])


def test_softmax_axis_out_of_range():
    with pytest.raises(type_check.InvalidType):
        F.softmax(numpy.zeros((2, 3), numpy.float32), axis=2)


@pytest.mark.parametrize('axis', [5, -3])
def test_softmax_bad_axis_names_the_axis_argument(axis):
    with pytest.raises(type_check.InvalidType) as info:
        F.softmax(numpy.zeros((2, 3), numpy.float32), axis=axis)
    message = str(info.value)
    assert 'axis < x.ndim (the axis argument)' in message
    assert 'axis={}, x.ndim=2'.format(axis) in message


def test_softmax_rejects_int():
    with pytest.raises(type_check.InvalidType):
        F.softmax(numpy.zeros((2, 3), numpy.int32))
