import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check

from ._helpers import FLOAT_DTYPES, check_unary


def _log_softmax(x, axis):
    m = x.max(axis=axis, keepdims=True)
    return x - m - numpy.log(numpy.exp(x - m).sum(axis=axis, keepdims=True))


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('axis', [0, 1, -1])
def test_log_softmax(dtype, axis):
    check_unary(lambda x: F.log_softmax(x, axis=axis), lambda x: _log_softmax(x, axis),
                dtype, shape=(2, 3, 4), kinks=())


def test_log_softmax_large_logits():
    x = numpy.array([[1e4, -1e4, 0.]], numpy.float32)
    y = F.log_softmax(x).array
    numpy.testing.assert_allclose(y, [[0., -2e4, -1e4]])


def test_log_softmax_axis_out_of_range():
    with pytest.raises(type_check.InvalidType):
        F.log_softmax(numpy.zeros((2, 3), numpy.float32), axis=-3)


@pytest.mark.parametrize('axis', [2, -3])
def test_log_softmax_bad_axis_names_the_axis_argument(axis):
    with pytest.raises(type_check.InvalidType, match=r'axis={}, x\.ndim=2'.format(axis)):
        F.log_softmax(numpy.zeros((2, 3), numpy.float32), axis=axis)
