"""minimum shares its gradient code with maximum (see test_maximum.py); here the
scalar-like broadcast case and a float16 value check."""
import numpy

import minichainer.functions as F

from _math_helpers import check_op


def test_minimum_broadcast_single_element():
    x1 = numpy.array([[0.5, -0.3], [0.9, 0.1]])
    x2 = numpy.array([0.2])
    check_op(F.minimum, numpy.minimum, (x1, x2), numpy.float64)


def test_minimum_float16_values():
    x1 = numpy.array([1., -2.], numpy.float16)
    x2 = numpy.array([0.5, 3.], numpy.float16)
    y = F.minimum(x1, x2)
    assert y.dtype == numpy.float16
    numpy.testing.assert_array_equal(y.array, [0.5, -2.])
