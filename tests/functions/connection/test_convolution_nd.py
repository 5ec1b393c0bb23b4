import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check

from ._conv_ref import conv_ref, deconv_ref


@pytest.mark.parametrize('nd,xs,ws,stride,pad,dilate,groups,cover_all', [
    (1, (2, 3, 7), (4, 3, 3), 2, 1, 1, 1, False),
    (1, (1, 4, 6), (2, 2, 2), 1, 0, 2, 2, True),
    (3, (1, 2, 4, 3, 4), (2, 2, 2, 2, 3), (1, 2, 1), (1, 0, 1), 1, 1, False),
])
def test_convolution_nd(nd, xs, ws, stride, pad, dilate, groups, cover_all):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, xs)
    W = rng.uniform(-1, 1, ws)
    b = rng.uniform(-1, 1, ws[0])
    tup = (lambda v: v if isinstance(v, tuple) else (v,) * nd)

    def f(x, W, b):
        return F.convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)

    y = f(x, W, b)
    numpy.testing.assert_allclose(
        y.array, conv_ref(x, W, b, tup(stride), tup(pad), tup(dilate), groups, cover_all),
        rtol=1e-10, atol=1e-12)
    gy = rng.uniform(-1, 1, y.shape)
    gradient_check.check_backward(f, (x, W, b), gy, atol=1e-7, rtol=1e-6)
    ggs = tuple(rng.uniform(-1, 1, a.shape) for a in (x, W, b))
    gradient_check.check_double_backward(f, (x, W, b), gy, ggs, atol=1e-7, rtol=1e-6)


@pytest.mark.parametrize('nd,xs,ws,stride,pad,outsize,dilate,groups', [
    (1, (2, 3, 4), (3, 2, 3), 2, 1, None, 1, 1),
    (3, (1, 2, 2, 3, 2), (2, 2, 2, 2, 2), (2, 1, 2), 0, (5, 4, 4), 1, 1),
    (1, (1, 4, 3), (4, 1, 2), 1, 0, None, 2, 2),
])
def test_deconvolution_nd(nd, xs, ws, stride, pad, outsize, dilate, groups):
    rng = numpy.random.RandomState(1)
    x = rng.uniform(-1, 1, xs)
    W = rng.uniform(-1, 1, ws)
    b = rng.uniform(-1, 1, ws[1] * groups)
    tup = (lambda v: v if isinstance(v, tuple) else (v,) * nd)

    def f(x, W, b):
        return F.deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)

    y = f(x, W, b)
    numpy.testing.assert_allclose(
        y.array, deconv_ref(x, W, b, tup(stride), tup(pad), outsize, tup(dilate), groups),
        rtol=1e-10, atol=1e-12)
    gy = rng.uniform(-1, 1, y.shape)
    gradient_check.check_backward(f, (x, W, b), gy, atol=1e-7, rtol=1e-6)
    ggs = tuple(rng.uniform(-1, 1, a.shape) for a in (x, W, b))
    gradient_check.check_double_backward(f, (x, W, b), gy, ggs, atol=1e-7, rtol=1e-6)


def test_convolution_1d_3d_ndim_checks():
    with pytest.raises(ValueError):
        F.convolution_1d(numpy.zeros((1, 1, 3, 3), 'f'), numpy.zeros((1, 1, 2, 2), 'f'))
    with pytest.raises(ValueError):
        F.convolution_3d(numpy.zeros((1, 1, 3, 3), 'f'), numpy.zeros((1, 1, 2, 2), 'f'))
    with pytest.raises(ValueError):
        F.deconvolution_1d(numpy.zeros((1, 1, 3, 3), 'f'), numpy.zeros((1, 1, 2, 2), 'f'))
    y = F.convolution_1d(numpy.ones((1, 1, 5), 'f'), numpy.ones((1, 1, 2), 'f'))
    numpy.testing.assert_allclose(y.array, 2 * numpy.ones((1, 1, 4)))
    y = F.deconvolution_3d(numpy.ones((1, 1, 2, 2, 2), 'f'), numpy.ones((1, 1, 1, 1, 1), 'f'))
    assert y.shape == (1, 1, 2, 2, 2)
