import numpy
import pytest

import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check

from ._conv_ref import deconv_ref

TOL = {numpy.float32: {'atol': 1e-3, 'rtol': 1e-2},
       numpy.float64: {'atol': 1e-7, 'rtol': 1e-6}}

CASES = [
    # x shape, W shape, stride, pad, outsize, dilate, groups, nobias
    ((2, 3, 3, 4), (3, 2, 3, 3), 1, 1, None, 1, 1, False),
    ((1, 2, 3, 3), (2, 3, 2, 3), 2, 0, (7, 7), 1, 1, True),
    ((2, 4, 3, 3), (4, 1, 3, 3), (2, 1), (1, 0), None, (1, 2), 2, False),
]


@pytest.mark.parametrize('case', CASES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_deconvolution_2d(case, dtype):
    xs, ws, stride, pad, outsize, dilate, groups, nobias = case
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, xs).astype(dtype)
    W = rng.uniform(-1, 1, ws).astype(dtype)
    b = None if nobias else rng.uniform(-1, 1, ws[1] * groups).astype(dtype)

    def f(*args):
        return F.deconvolution_2d(*args, stride=stride, pad=pad, outsize=outsize,
                                  dilate=dilate, groups=groups)

    args = (x, W) if nobias else (x, W, b)
    y = f(*args)
    pair = (lambda v: v if isinstance(v, tuple) else (v, v))
    expect = deconv_ref(x, W, b, pair(stride), pair(pad), outsize, pair(dilate), groups)
    assert y.dtype == dtype and y.shape == expect.shape
    numpy.testing.assert_allclose(y.array, expect, **TOL[dtype])
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    gradient_check.check_backward(f, args, gy, **TOL[dtype])
    ggs = tuple(rng.uniform(-1, 1, a.shape).astype(dtype) for a in args)
    gradient_check.check_double_backward(f, args, gy, ggs, **TOL[dtype])


def test_deconvolution_2d_float16():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (1, 2, 3, 3)).astype(numpy.float16)
    W = rng.uniform(-1, 1, (2, 2, 3, 3)).astype(numpy.float16)
    y = F.deconvolution_2d(x, W, stride=2)
    assert y.dtype == numpy.float16 and y.shape == (1, 2, 7, 7)
    numpy.testing.assert_allclose(
        y.array, deconv_ref(x, W, None, (2, 2), (0, 0), None, (1, 1), 1),
        atol=5e-3, rtol=5e-2)


def test_deconvolution_2d_bad_outsize():
    x = numpy.zeros((1, 2, 3, 3), 'f')
    W = numpy.zeros((2, 2, 3, 3), 'f')
    with pytest.raises(type_check.InvalidType):
        F.deconvolution_2d(x, W, stride=1, outsize=(10, 10))
    with pytest.raises(type_check.InvalidType):
        F.deconvolution_2d(x, numpy.zeros((3, 2, 3, 3), 'f'))
