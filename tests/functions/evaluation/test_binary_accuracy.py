import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_binary_accuracy(dtype):
    y = numpy.array([[1., -2.], [0., -0.5], [3., 2.]], dtype)
    t = numpy.array([[1, 1], [1, -1], [0, -1]], numpy.int32)
    # counted: (1,1) right, (-2,1) wrong, (0,1) right, (3,0) wrong -> 2 / 4
    acc = F.binary_accuracy(y, t)
    assert acc.shape == () and acc.dtype == dtype
    numpy.testing.assert_allclose(acc.array, 0.5)


def test_binary_accuracy_all_ignored():
    acc = F.binary_accuracy(numpy.zeros(3, numpy.float32), -numpy.ones(3, numpy.int32))
    assert acc.array == 0


def test_binary_accuracy_shape_mismatch():
    with pytest.raises(type_check.InvalidType):
        F.binary_accuracy(numpy.zeros(3, 'f'), numpy.zeros(4, 'i'))
