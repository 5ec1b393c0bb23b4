import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from tests.functions.pooling._helpers import distinct


@pytest.mark.parametrize('k,s,p,cover_all', [(2, None, 0, True), (3, 2, 1, False)])
def test_max_pooling_nd_matches_2d(k, s, p, cover_all):
    x = distinct((2, 2, 5, 6))
    y2 = F.max_pooling_2d(x, k, s, p, cover_all)
    yn, idx = F.max_pooling_nd(x, k, s, p, cover_all, return_indices=True)
    numpy.testing.assert_array_equal(y2.array, yn.array)
    assert idx.shape == yn.shape
    rng = numpy.random.RandomState(0)
    f = (lambda x: F.max_pooling_nd(x, k, s, p, cover_all))
    gy = rng.randn(*yn.shape)
    gradient_check.check_backward(f, (x,), gy, eps=1e-4, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(f, (x,), gy, (rng.randn(*x.shape),),
                                         eps=1e-4, atol=1e-6, rtol=1e-5)


def test_max_pooling_1d_3d():
    x = distinct((1, 2, 7))
    y = F.max_pooling_1d(x, 3, 2, cover_all=False)
    numpy.testing.assert_array_equal(
        y.array, numpy.stack([x[..., 0:3].max(-1), x[..., 2:5].max(-1), x[..., 4:7].max(-1)], -1))
    x3 = distinct((1, 1, 4, 4, 4))
    y3 = F.max_pooling_3d(x3, 2)
    numpy.testing.assert_array_equal(
        y3.array, x3.reshape(1, 1, 2, 2, 2, 2, 2, 2).max(axis=(3, 5, 7)))
    with pytest.raises(ValueError):
        F.max_pooling_1d(x3, 2)


@pytest.mark.parametrize('pad_value', [0, None])
def test_average_pooling_nd(pad_value):
    rng = numpy.random.RandomState(1)
    x = rng.randn(2, 2, 5, 4, 3)
    y = F.average_pooling_nd(x, 3, 2, 1, pad_value=pad_value)
    xp = numpy.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1), (1, 1)))
    mp = numpy.pad(numpy.ones_like(x), ((0, 0), (0, 0), (1, 1), (1, 1), (1, 1)))
    ref = numpy.empty(y.shape)
    for i in range(y.shape[2]):
        for j in range(y.shape[3]):
            for k in range(y.shape[4]):
                sl = (slice(None), slice(None), slice(2 * i, 2 * i + 3),
                      slice(2 * j, 2 * j + 3), slice(2 * k, 2 * k + 3))
                cnt = 27 if pad_value == 0 else mp[sl].sum(axis=(2, 3, 4))
                ref[:, :, i, j, k] = xp[sl].sum(axis=(2, 3, 4)) / cnt
    numpy.testing.assert_allclose(y.array, ref, rtol=1e-10)
    f = (lambda x: F.average_pooling_nd(x, 3, 2, 1, pad_value=pad_value))
    gy = rng.randn(*y.shape)
    gradient_check.check_backward(f, (x,), gy, atol=1e-6, rtol=1e-5)
    gradient_check.check_double_backward(f, (x,), gy, (rng.randn(*x.shape),),
                                         atol=1e-6, rtol=1e-5)
    y2 = F.average_pooling_2d(x[..., 0], 3, 2, 1)
    numpy.testing.assert_allclose(y2.array, F.average_pooling_nd(x[..., 0], 3, 2, 1).array)
    with pytest.raises(ValueError):
        F.average_pooling_nd(x, 2, pad_value=1)


def test_unpooling_nd_matches_2d():
    rng = numpy.random.RandomState(2)
    x = rng.randn(1, 2, 3, 3)
    numpy.testing.assert_allclose(F.unpooling_nd(x, 2, 2, 0).array,
                                  F.unpooling_2d(x, 2, 2, 0).array)
    x1 = rng.randn(1, 2, 3)
    y1 = F.unpooling_1d(x1, 2, cover_all=False)
    numpy.testing.assert_allclose(y1.array, numpy.repeat(x1, 2, axis=2))
    f = (lambda x: F.unpooling_nd(x, 3, 2, 1, cover_all=False))
    y = f(x1)
    gradient_check.check_backward(f, (x1,), rng.randn(*y.shape), atol=1e-6, rtol=1e-5)
