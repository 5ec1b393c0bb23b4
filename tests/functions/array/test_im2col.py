import numpy
import pytest

import minichainer.functions as F
from minichainer.utils import type_check


def _im2col_reference(x, kh, kw, sy, sx, ph, pw, dy, dx, cover_all):
    n, c, h, w = x.shape
    dkh = (kh - 1) * dy + 1
    dkw = (kw - 1) * dx + 1
    if cover_all:
        out_h = (h + 2 * ph - dkh + sy - 1) // sy + 1
        out_w = (w + 2 * pw - dkw + sx - 1) // sx + 1
    else:
        out_h = (h + 2 * ph - dkh) // sy + 1
        out_w = (w + 2 * pw - dkw) // sx + 1
    padded = numpy.zeros((n, c, h + 2 * ph + sy, w + 2 * pw + sx), x.dtype)
    padded[:, :, ph:ph + h, pw:pw + w] = x
    y = numpy.zeros((n, c, kh, kw, out_h, out_w), x.dtype)
    for i in range(kh):
        for j in range(kw):
            for oy in range(out_h):
                for ox in range(out_w):
                    y[:, :, i, j, oy, ox] = padded[:, :, oy * sy + i * dy, ox * sx + j * dx]
    return y.reshape(n, c * kh * kw, out_h, out_w)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('ksize, stride, pad, dilate, cover_all', [
    (3, 1, 0, 1, False),
    ((2, 3), (2, 1), (1, 0), 1, False),
    (2, 2, 1, 1, True),
    (2, 1, 1, (2, 1), False),
])
def test_im2col(dtype, ksize, stride, pad, dilate, cover_all, check_grads):
    x = numpy.asarray(numpy.random.uniform(-1, 1, (2, 2, 5, 4)), dtype=dtype)
    y = F.im2col(x, ksize, stride, pad, cover_all, dilate)
    pair = (lambda v: v if isinstance(v, tuple) else (v, v))
    (kh, kw), (sy, sx), (ph, pw), (dy, dx) = map(pair, (ksize, stride, pad, dilate))
    expected = _im2col_reference(x, kh, kw, sy, sx, ph, pw, dy, dx, cover_all)
    assert y.dtype == dtype
    numpy.testing.assert_array_equal(y.array, expected)

    def f(x):
        return F.im2col(x, ksize, stride, pad, cover_all, dilate)
    gy = numpy.asarray(numpy.random.uniform(-1, 1, expected.shape), dtype=dtype)
    ggx = numpy.asarray(numpy.random.uniform(-1, 1, x.shape), dtype=dtype)
    check_grads(f, x, gy, ggx, dtype)


@pytest.mark.parametrize('x', [numpy.zeros((2, 2, 5), numpy.float32),
                               numpy.zeros((2, 2, 5, 5), numpy.int32)])
def test_im2col_invalid(x):
    with pytest.raises(type_check.InvalidType):
        F.im2col(x, 2)
