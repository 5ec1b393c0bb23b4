import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import conv

from ._conv_ref import conv_ref


def _pair(v):
    return v if isinstance(v, tuple) else (v, v)


def deform_ref(x, offset, W, b, stride, pad):
    """Loop reference: bilinear samples of x (zero outside) at the displaced taps."""
    sy, sx = _pair(stride)
    ph, pw = _pair(pad)
    n, c, h, w = x.shape
    out_c, _, kh, kw = W.shape
    out_h, out_w = offset.shape[2:]
    x = x.astype(numpy.float64)

    def pixel(bi, yy, xx):
        if 0 <= yy < h and 0 <= xx < w:
            return x[bi, :, yy, xx]
        return numpy.zeros(c)

    y = numpy.zeros((n, out_c, out_h, out_w))
    for bi in range(n):
        for i in range(out_h):
            for j in range(out_w):
                col = numpy.zeros((c, kh, kw))
                for a in range(kh):
                    for t in range(kw):
                        k = a * kw + t
                        py = i * sy + a - ph + float(offset[bi, kh * kw + k, i, j])
                        px = j * sx + t - pw + float(offset[bi, k, i, j])
                        y0, x0 = int(numpy.floor(py)), int(numpy.floor(px))
                        fy, fx = py - y0, px - x0
                        col[:, a, t] = (
                            (1 - fy) * (1 - fx) * pixel(bi, y0, x0)
                            + (1 - fy) * fx * pixel(bi, y0, x0 + 1)
                            + fy * (1 - fx) * pixel(bi, y0 + 1, x0)
                            + fy * fx * pixel(bi, y0 + 1, x0 + 1))
                y[bi, :, i, j] = numpy.tensordot(W.astype(numpy.float64), col, 3)
    if b is not None:
        y += b.reshape(1, -1, 1, 1)
    return y


def _inputs(rng, xs, ws, stride, pad, dtype, nobias=False, spread=2):
    sy, sx = _pair(stride)
    ph, pw = _pair(pad)
    x = rng.uniform(-1, 1, xs).astype(dtype)
    W = rng.uniform(-1, 1, ws).astype(dtype)
    b = None if nobias else rng.uniform(-1, 1, ws[0]).astype(dtype)
    out_h = conv.get_conv_outsize(xs[2], ws[2], sy, ph)
    out_w = conv.get_conv_outsize(xs[3], ws[3], sx, pw)
    oshape = (xs[0], 2 * ws[2] * ws[3], out_h, out_w)
    # Fractional parts away from 0 and 1 keep the numerical gradients off the kinks of
    # bilinear interpolation.
    offset = (rng.randint(-spread, spread + 1, oshape)
              + rng.uniform(0.2, 0.8, oshape)).astype(dtype)
    return x, offset, W, b


CASES = [
    # (x shape, W shape, stride, pad, nobias)
    ((2, 3, 5, 4), (2, 3, 3, 2), 1, 1, False),
    ((1, 2, 6, 5), (3, 2, 2, 3), (2, 1), (0, 1), True),
    ((1, 2, 4, 4), (2, 2, 1, 1), 2, 0, False),
]


@pytest.mark.parametrize('xs,ws,stride,pad,nobias', CASES)
def test_forward_matches_reference(xs, ws, stride, pad, nobias):
    rng = numpy.random.RandomState(0)
    x, offset, W, b = _inputs(rng, xs, ws, stride, pad, numpy.float32, nobias)
    y = F.deformable_convolution_2d_sampler(x, offset, W, b, stride, pad)
    expect = deform_ref(x, offset, W, b, stride, pad)
    assert y.dtype == numpy.float32 and y.shape == expect.shape
    numpy.testing.assert_allclose(y.array, expect, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize('xs,ws,stride,pad,nobias', CASES)
def test_zero_offset_is_convolution(xs, ws, stride, pad, nobias):
    rng = numpy.random.RandomState(1)
    x, offset, W, b = _inputs(rng, xs, ws, stride, pad, numpy.float32, nobias)
    offset[...] = 0
    y = F.deformable_convolution_2d_sampler(x, offset, W, b, stride, pad)
    expect = F.convolution_2d(x, W, b, stride, pad)
    numpy.testing.assert_allclose(y.array, expect.array, atol=1e-5, rtol=1e-5)
    # Moving every tap one pixel left and one down equals a convolution with one more
    # pixel of padding, read two rows lower (the strides here divide 2).
    offset[:, :ws[2] * ws[3]] = -1
    offset[:, ws[2] * ws[3]:] = 1
    y = F.deformable_convolution_2d_sampler(x, offset, W, b, stride, pad)
    sy, sx = _pair(stride)
    ph, pw = _pair(pad)
    wide = conv_ref(x, W, b, (sy, sx), (ph + 1, pw + 1), (1, 1), 1)
    out_h, out_w = y.shape[2:]
    numpy.testing.assert_allclose(
        y.array, wide[:, :, 2 // sy:2 // sy + out_h, :out_w], atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_gradients(dtype):
    rng = numpy.random.RandomState(2)
    x, offset, W, b = _inputs(rng, (2, 2, 4, 3), (2, 2, 2, 2), 1, 1, dtype)
    args = (x, offset, W, b)
    y = F.deformable_convolution_2d_sampler(*args, stride=1, pad=1)
    gy = rng.uniform(-1, 1, y.shape).astype(dtype)
    ggs = tuple(rng.uniform(-1, 1, a.shape).astype(dtype) for a in args)
    tol = {'atol': 1e-3, 'rtol': 1e-2} if dtype == numpy.float32 else {}

    def f(*a):
        return F.deformable_convolution_2d_sampler(*a, stride=1, pad=1)

    gradient_check.check_backward(f, args, gy, dtype=numpy.float64, **tol)
    gradient_check.check_double_backward(f, args, gy, ggs, dtype=numpy.float64, **tol)


def test_gradient_with_stride_and_far_offsets():
    rng = numpy.random.RandomState(3)
    # Offsets up to 4 pixels away reach past the padded image, where the input is zero
    # and the offset gradient vanishes.
    x, offset, W, _ = _inputs(rng, (1, 2, 5, 5), (2, 2, 3, 3), 2, (1, 0), numpy.float64,
                              spread=4)
    y = F.deformable_convolution_2d_sampler(x, offset, W, None, 2, (1, 0))
    gy = rng.uniform(-1, 1, y.shape)
    gradient_check.check_backward(
        lambda *a: F.deformable_convolution_2d_sampler(*a, stride=2, pad=(1, 0)),
        (x, offset, W), gy)


def test_matches_chainer_values():
    # Output and offset gradient of Chainer 7.8.1 for the same inputs (some taps are
    # clipped at the border, where the gradient is zero).
    x = (numpy.arange(9, dtype=numpy.float32).reshape(1, 1, 3, 3) - 4) / 4
    W = numpy.array([[[[1., -2.], [0.5, 3.]]]], numpy.float32)
    offset = minichainer.Variable(numpy.array(
        [0.3, -0.6, 1.25, 0.4, -0.2, 0.7, 0.1, -1.5] * 4, numpy.float32).reshape(1, 8, 2, 2))
    y = F.deformable_convolution_2d_sampler(x, offset, W, numpy.array([0.5], numpy.float32),
                                            1, (0, 1))
    numpy.testing.assert_allclose(
        y.array.ravel(), [0.5837499, 2.4, 2.6393752, 0.39250007], rtol=1e-5, atol=1e-6)
    F.sum(y * numpy.arange(1, 5, dtype=numpy.float32).reshape(y.shape)).backward()
    numpy.testing.assert_allclose(offset.grad.ravel(), [
        -0.775, -0.8, 0.5625, 1., 1.6, -1., -1.5, 4., -0.0125, -0.7, 0., 0.3, -1.2, 1.5,
        2.025, -7.5, 0.225, -0.8, -1.6875, 3., 1.6, -3., -4.5, 4., 0.1125, 0.3, 0., -1.2,
        1.8, 4.5, -4.725, 4.5], rtol=1e-5, atol=1e-6)


def test_errors():
    x = numpy.zeros((2, 3, 5, 5), numpy.float32)
    W = numpy.zeros((4, 3, 3, 3), numpy.float32)
    offset = numpy.zeros((2, 18, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match='offset.shape'):
        F.deformable_convolution_2d_sampler(x, offset[:, :9], W)
    with pytest.raises(ValueError, match='batch size'):
        F.deformable_convolution_2d_sampler(x, offset[:1], W)
    with pytest.raises(ValueError, match='offset.dtype'):
        F.deformable_convolution_2d_sampler(x, offset.astype(numpy.float64), W)
    with pytest.raises(ValueError, match='W.shape'):
        F.deformable_convolution_2d_sampler(x, offset, W[:, :2])
    with pytest.raises(ValueError, match='b must'):
        F.deformable_convolution_2d_sampler(x, offset, W, numpy.zeros(3, numpy.float32))
    with pytest.raises(ValueError, match='x must be 4-D'):
        F.deformable_convolution_2d_sampler(x[0], offset, W)
    with pytest.raises(ValueError, match='float'):
        F.deformable_convolution_2d_sampler(x.astype(numpy.int32), offset, W)
