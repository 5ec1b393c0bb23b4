import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer.utils import type_check

from _math_helpers import FLOAT_DTYPES, check_op, uniform


@pytest.mark.parametrize('dtype', FLOAT_DTYPES)
@pytest.mark.parametrize('axis,keepdims', [(None, False), (None, True), (1, False),
                                           (-1, True), ((0, 2), False)])
def test_mean(axis, keepdims, dtype):
    x = uniform((3, 2, 4), dtype)
    check_op(lambda v: F.average(v, axis=axis, keepdims=keepdims),
             lambda v: numpy.mean(v, axis=axis, keepdims=keepdims), (x,), dtype)


def test_mean_is_average():
    assert F.mean is F.average


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
@pytest.mark.parametrize('axis,keepdims', [(None, False), (1, False), (-1, True), ((1,), False)])
def test_weighted(axis, keepdims, dtype):
    x = uniform((3, 4), dtype)
    if axis is None:
        w = uniform((3, 4), dtype, 0.5, 1.5, seed=2)
    else:
        w = uniform((4,), dtype, 0.5, 1.5, seed=2)

    def ref(v, wv):
        ax = axis if not isinstance(axis, tuple) else axis[0]
        out = numpy.average(v, axis=ax, weights=wv)
        if keepdims:
            out = numpy.expand_dims(out, ax) if ax is not None else out.reshape(1, 1)
        return out

    check_op(lambda v, wv: F.average(v, axis=axis, weights=wv, keepdims=keepdims),
             ref, (x, w), dtype)


def test_weighted_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError):
        F.average(x, axis=(0, 1), weights=numpy.ones(3, numpy.float32))
    with pytest.raises(ValueError):
        F.average(x, axis=(1, -1), weights=numpy.ones(3, numpy.float32))
    with pytest.raises(ValueError):
        F.average(x, axis=(0, 0))
    with pytest.raises(type_check.InvalidType):
        F.average(numpy.arange(3))


def test_float16_mean_of_large_values():
    x = numpy.full((1000,), 60000., numpy.float16)
    y = F.mean(x)
    assert y.dtype == numpy.float16
    assert y.array == numpy.float16(60000.)


def test_mean_grad_value():
    x = minichainer.Variable(numpy.ones((2, 5), numpy.float32))
    y = F.sum(F.mean(x, axis=1))
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.full((2, 5), 0.2))
