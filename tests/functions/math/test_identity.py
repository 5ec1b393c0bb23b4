import numpy

import minichainer
import minichainer.functions as F

from _math_helpers import check_op, uniform


def test_identity_single():
    check_op(F.identity, lambda x: x, (uniform((3, 2), numpy.float32),), numpy.float32)


def test_identity_multiple_returns_tuple():
    a = minichainer.Variable(numpy.ones(2, numpy.float32))
    b = minichainer.Variable(numpy.zeros(3, numpy.float32))
    ya, yb = F.identity(a, b)
    assert ya is not a and yb is not b
    numpy.testing.assert_array_equal(ya.array, a.array)
    F.sum(ya * 2).backward()
    numpy.testing.assert_array_equal(a.grad, [2., 2.])
