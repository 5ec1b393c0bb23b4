import itertools

import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check
from tests.functions.pooling._helpers import distinct, grad_tolerance


def _out(size, k, s, p, cover_all):
    if cover_all:
        return (size + 2 * p - k + s - 1) // s + 1
    return (size + 2 * p - k) // s + 1


def _pool_ref(x, k, s, p, cover_all, op, pad_val):
    n, c, h, w = x.shape
    oh, ow = _out(h, k[0], s[0], p[0], cover_all), _out(w, k[1], s[1], p[1], cover_all)
    xp = numpy.full((n, c, h + 2 * p[0] + s[0] + k[0], w + 2 * p[1] + s[1] + k[1]), pad_val)
    xp[:, :, p[0]:p[0] + h, p[1]:p[1] + w] = x
    y = numpy.empty((n, c, oh, ow))
    for i, j in itertools.product(range(oh), range(ow)):
        win = xp[:, :, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1]]
        y[:, :, i, j] = op(win.reshape(n, c, -1), axis=2)
    return y


CASES = [((2, 3, 5, 4), 2, None, 0, True), ((1, 2, 6, 7), 3, 2, 1, True),
         ((1, 2, 6, 7), (3, 2), (2, 1), (1, 0), False)]


def _p(v):
    return v if isinstance(v, tuple) else (v, v)


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_max_pooling_2d(case, dtype):
    shape, k, s, p, cover_all = case
    x = distinct(shape, dtype)
    f = (lambda x: F.max_pooling_2d(x, k, s, p, cover_all))
    y = f(x)
    ref = _pool_ref(x.astype('d'), _p(k), _p(s if s is not None else k), _p(p), cover_all,
                    numpy.max, -numpy.inf)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, ref.astype(dtype))
    rng = numpy.random.RandomState(1)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    gradient_check.check_backward(f, (x,), gy, **grad_tolerance(dtype))
    gradient_check.check_double_backward(f, (x,), gy,
                                         (rng.uniform(-1, 1, x.shape).astype(dtype),),
                                         **grad_tolerance(dtype))


def test_max_pooling_2d_return_indices_and_upsampling():
    x = distinct((2, 3, 4, 6), numpy.float32)
    y, idx = F.max_pooling_2d(x, 2, return_indices=True)
    assert idx.shape == y.shape
    col = x.reshape(2, 3, 2, 2, 3, 2).transpose(0, 1, 2, 4, 3, 5).reshape(2, 3, 2, 3, 4)
    numpy.testing.assert_array_equal(idx, col.argmax(axis=4))
    up = F.upsampling_2d(y, idx, 2, outsize=(4, 6))
    # each max is put back to its original position, zeros elsewhere
    expect = numpy.where(x == numpy.repeat(numpy.repeat(y.array, 2, 2), 2, 3), x, 0)
    numpy.testing.assert_array_equal(up.array, expect)
    rng = numpy.random.RandomState(0)
    f = (lambda v: F.upsampling_2d(v, idx, 2, outsize=(4, 6)))
    gradient_check.check_backward(f, (y.array.astype('d'),), rng.randn(2, 3, 4, 6),
                                  atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(f, (y.array.astype('d'),), rng.randn(2, 3, 4, 6),
                                         (rng.randn(*y.shape),), atol=1e-6, rtol=1e-5)


@pytest.mark.parametrize('case', [((2, 3, 5, 4), 2, None, 0), ((1, 2, 6, 7), 3, 2, 1),
                                  ((1, 2, 6, 7), (3, 2), (2, 1), (1, 0))])
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_average_pooling_2d(case, dtype):
    shape, k, s, p = case
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, shape).astype(dtype)
    f = (lambda x: F.average_pooling_2d(x, k, s, p))
    y = f(x)
    ref = _pool_ref(x.astype('d'), _p(k), _p(s if s is not None else k), _p(p), False,
                    numpy.mean, 0.0)
    tol = {'atol': 1e-3, 'rtol': 1e-2} if dtype == numpy.float16 else {'atol': 1e-6, 'rtol': 1e-5}
    assert y.dtype == dtype
    numpy.testing.assert_allclose(y.array, ref, **tol)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    gradient_check.check_backward(f, (x,), gy, **grad_tolerance(dtype))
    gradient_check.check_double_backward(f, (x,), gy,
                                         (rng.uniform(-1, 1, x.shape).astype(dtype),),
                                         **grad_tolerance(dtype))


@pytest.mark.parametrize('k,s,p,outsize,cover_all', [
    (2, None, 0, None, True), (3, 2, 1, None, False), (2, 2, 0, (5, 7), True)])
def test_unpooling_2d(k, s, p, outsize, cover_all):
    rng = numpy.random.RandomState(0)
    x = rng.randn(2, 3, 3, 4)
    f = (lambda x: F.unpooling_2d(x, k, s, p, outsize, cover_all))
    y = f(x)
    ss = s if s is not None else k
    if outsize is None:
        oh = ss * (3 - 1) + k - 2 * p - (ss - 1 if cover_all else 0)
        ow = ss * (4 - 1) + k - 2 * p - (ss - 1 if cover_all else 0)
    else:
        oh, ow = outsize
    assert y.shape == (2, 3, oh, ow)
    ref = numpy.zeros((2, 3, oh + 2 * p + k + ss, ow + 2 * p + k + ss))
    for i in range(3):
        for j in range(4):
            ref[:, :, i * ss:i * ss + k, j * ss:j * ss + k] += x[:, :, i:i + 1, j:j + 1]
    numpy.testing.assert_allclose(y.array, ref[:, :, p:p + oh, p:p + ow])
    gy = rng.randn(*y.shape)
    gradient_check.check_backward(f, (x,), gy, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(f, (x,), gy, (rng.randn(*x.shape),),
                                         atol=1e-6, rtol=1e-5)


def test_pooling_type_errors():
    with pytest.raises(type_check.InvalidType):
        F.max_pooling_2d(numpy.zeros((2, 3, 4), 'f'), 2)
    with pytest.raises(type_check.InvalidType):
        F.average_pooling_2d(numpy.zeros((1, 1, 4, 4), 'i'), 2)
    with pytest.raises(type_check.InvalidType):
        F.unpooling_2d(numpy.zeros((1, 1, 2, 2), 'f'), 2, outsize=(7, 7))
    with pytest.raises(type_check.InvalidType):
        F.upsampling_2d(numpy.zeros((1, 1, 2, 2), 'f'), numpy.zeros((1, 1, 3, 3), 'i'), 2)


def test_spatial_pyramid_pooling_2d():
    x = distinct((2, 3, 5, 6), numpy.float64)
    y = F.spatial_pyramid_pooling_2d(x, 3, pooling='max')
    assert y.shape == (2, 3 * (1 + 4 + 16), 1, 1)
    numpy.testing.assert_array_equal(y.array[:, :3, 0, 0], x.max(axis=(2, 3)))
    level1 = F.max_pooling_2d(x, (3, 3), pad=(0, 0)).array.reshape(2, -1)
    numpy.testing.assert_array_equal(y.array[:, 3:15, 0, 0], level1)
    rng = numpy.random.RandomState(0)
    gradient_check.check_backward(lambda x: F.spatial_pyramid_pooling_2d(x, 2, 'max'),
                                  (x,), rng.randn(2, 15, 1, 1), atol=1e-6, rtol=1e-5)
    with pytest.raises(ValueError):
        F.spatial_pyramid_pooling_2d(x, 2)


def test_pooling_2d_takes_numpy_integer_arguments():
    # Chainer's Pooling2D reads a non-iterable ksize/stride/pad (a NumPy integer
    # included) as one value for both axes
    from minichainer.functions.pooling.max_pooling_2d import MaxPooling2D
    from minichainer.functions.pooling.average_pooling_2d import AveragePooling2D
    x = numpy.arange(2 * 3 * 6 * 6, dtype=numpy.float32).reshape(2, 3, 6, 6)
    for cls, op in ((MaxPooling2D, numpy.max), (AveragePooling2D, numpy.mean)):
        f = cls(numpy.int64(2), numpy.int64(2), numpy.int64(0), cover_all=True)
        assert (f.kh, f.kw, f.sy, f.sx, f.ph, f.pw) == (2, 2, 2, 2, 0, 0)
        y, = f.apply((x,))
        numpy.testing.assert_allclose(y.array, _pool_ref(x, (2, 2), (2, 2), (0, 0), True,
                                                         op, -numpy.inf))
    y = F.max_pooling_2d(x, numpy.int32(3), stride=numpy.int64(3))
    assert y.shape == (2, 3, 2, 2)
