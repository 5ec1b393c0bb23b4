"""Tests of bias and scale (Caffe-style broadcasting from ``axis``)."""
import numpy
import pytest

import minichainer.functions as F

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('func,op', [(F.bias, numpy.add), (F.scale, numpy.multiply)])
@pytest.mark.parametrize('y_shape,axis,np_shape', [((3, 2), 1, (1, 3, 2, 1)),
                                                   ((2,), 0, (2, 1, 1, 1)),
                                                   ((2, 1), 2, (1, 1, 2, 1))])
def test_bias_scale(func, op, y_shape, axis, np_shape, dtype):
    if y_shape == (2,):
        x = uniform((2, 3, 2, 2), dtype)
    elif axis == 2:
        x = uniform((2, 3, 2, 1), dtype)
    else:
        x = uniform((2, 3, 2, 2), dtype)
    y = uniform(y_shape, dtype, seed=5)
    check_op(lambda a, b: func(a, b, axis=axis),
             lambda a, b: op(a, b.reshape(np_shape)), (x, y), dtype)


def test_default_axis_is_one():
    x = numpy.ones((2, 3), numpy.float32)
    y = numpy.arange(3, dtype=numpy.float32)
    numpy.testing.assert_array_equal(F.bias(x, y).array, x + y)
    numpy.testing.assert_array_equal(F.scale(x, y).array, x * y)
