import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

DTYPES = [numpy.float16, numpy.float32, numpy.float64]


def _tol(dtype):
    return {'atol': 5e-3, 'rtol': 5e-2} if dtype == numpy.float16 else {'rtol': 1e-5}


def _gc(dtype):
    if dtype == numpy.float16:
        return {'dtype': numpy.float64, 'atol': 5e-3, 'rtol': 5e-2}
    if dtype == numpy.float32:
        return {'atol': 1e-3, 'rtol': 1e-2}
    return {'atol': 1e-7, 'rtol': 1e-6}


def _inputs(dtype, shape=(4, 3), seed=0):
    rng = numpy.random.RandomState(seed)
    x0 = rng.uniform(-1, 1, shape).astype(dtype)
    x1 = rng.uniform(-1, 1, shape).astype(dtype)
    return rng, x0, x1


@pytest.mark.parametrize('dtype', DTYPES)
def test_mean_squared_error(dtype):
    rng, x0, x1 = _inputs(dtype)
    y = F.mean_squared_error(x0, x1)
    assert y.shape == () and y.dtype == dtype
    d = x0.astype('d') - x1
    numpy.testing.assert_allclose(y.array, (d * d).mean(), **_tol(dtype))
    gradient_check.check_backward(F.mean_squared_error, (x0, x1), None, **_gc(dtype))
    gg = (rng.uniform(-1, 1, x0.shape).astype(dtype), rng.uniform(-1, 1, x0.shape).astype(dtype))
    gradient_check.check_double_backward(F.mean_squared_error, (x0, x1), None, gg,
                                         **_gc(dtype))


@pytest.mark.parametrize('dtype', DTYPES)
def test_mean_absolute_error(dtype):
    rng, x0, x1 = _inputs(dtype)
    y = F.mean_absolute_error(x0, x1)
    assert y.shape == () and y.dtype == dtype
    numpy.testing.assert_allclose(y.array, numpy.abs(x0.astype('d') - x1).mean(),
                                  **_tol(dtype))
    gradient_check.check_backward(F.mean_absolute_error, (x0, x1), None, **_gc(dtype))


def test_mean_absolute_error_float16_sum_does_not_overflow():
    # 16,384 differences of 4 sum to 65,536, past float16's largest value (65,504):
    # the sum is taken in float32, as Chainer does, and the mean is 4, not inf
    x0 = numpy.full((64, 1, 16, 16), 2, dtype=numpy.float16)
    with numpy.errstate(over='raise'):
        y = F.mean_absolute_error(x0, -x0)
    assert y.dtype == numpy.float16
    assert y.array == 4


@pytest.mark.parametrize('dtype', DTYPES)
def test_squared_error(dtype):
    rng, x0, x1 = _inputs(dtype)
    y = F.squared_error(x0, x1)
    numpy.testing.assert_allclose(y.array, (x0.astype('d') - x1) ** 2, **_tol(dtype))
    gy = rng.uniform(-1, 1, x0.shape).astype(dtype)
    gradient_check.check_backward(F.squared_error, (x0, x1), gy, **_gc(dtype))
    gg = (rng.uniform(-1, 1, x0.shape).astype(dtype), rng.uniform(-1, 1, x0.shape).astype(dtype))
    gradient_check.check_double_backward(F.squared_error, (x0, x1), gy, gg, **_gc(dtype))


@pytest.mark.parametrize('dtype', DTYPES)
def test_absolute_error(dtype):
    rng, x0, x1 = _inputs(dtype)
    y = F.absolute_error(x0, x1)
    numpy.testing.assert_allclose(y.array, numpy.abs(x0.astype('d') - x1), **_tol(dtype))
    gy = rng.uniform(-1, 1, x0.shape).astype(dtype)
    gradient_check.check_backward(F.absolute_error, (x0, x1), gy, **_gc(dtype))


@pytest.mark.parametrize('dtype', DTYPES)
@pytest.mark.parametrize('reduce', ['sum_along_second_axis', 'no'])
def test_huber_loss(dtype, reduce):
    rng, x0, x1 = _inputs(dtype, (4, 3))
    x0 *= 2
    y = F.huber_loss(x0, x1, delta=0.7, reduce=reduce)
    d = numpy.abs(x0.astype('d') - x1)
    ref = numpy.where(d <= 0.7, 0.5 * d * d, 0.7 * (d - 0.35))
    if reduce != 'no':
        ref = ref.sum(axis=1)
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, ref, **_tol(dtype))
    gy = rng.uniform(-1, 1, ref.shape).astype(dtype)
    f = (lambda a, b: F.huber_loss(a, b, 0.7, reduce))
    gradient_check.check_backward(f, (x0, x1), gy, **_gc(dtype))
    with pytest.raises(ValueError):
        F.huber_loss(x0, x1, 1.0, reduce='mean')


def test_shape_mismatch_errors():
    a = numpy.zeros((2, 3), 'f')
    for f in (F.mean_squared_error, F.mean_absolute_error, F.squared_error,
              F.absolute_error):
        with pytest.raises(type_check.InvalidType):
            f(a, numpy.zeros((3, 2), 'f'))
        with pytest.raises(type_check.InvalidType):
            f(a, numpy.zeros((2, 3), 'd'))
