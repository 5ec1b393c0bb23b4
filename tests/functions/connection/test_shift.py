import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.functions.connection.shift import shift
from minichainer.utils import type_check


def shift_ref(x, ksize, dilate):
    """Per-channel loop: channel group g moves by the offset of window cell g."""
    kh, kw = ksize
    dy, dx = dilate
    n, c, h, w = x.shape
    n_groups = kh * kw
    size = c // n_groups
    y = numpy.zeros_like(x)
    for ch in range(c):
        group = min(ch // size, n_groups - 1)
        cell = {(n_groups - 1) // 2: n_groups - 1, n_groups - 1: (n_groups - 1) // 2}.get(
            group, group)
        ky, kx = cell // kw - kh // 2, cell % kw - kw // 2
        for r in range(h):
            for q in range(w):
                sr, sq = r - ky * dy, q - kx * dx
                if 0 <= sr < h and 0 <= sq < w:
                    y[:, ch, r, q] = x[:, ch, sr, sq]
    return y


CASES = [
    # (x shape, ksize, dilate)
    ((2, 9, 4, 3), (3, 3), (1, 1)),
    ((1, 11, 4, 5), (3, 3), (2, 1)),
    ((1, 7, 3, 4), (1, 5), (1, 1)),
    ((2, 5, 5, 3), (5, 1), (1, 2)),
    ((1, 6, 3, 3), (3, 1), (-1, 1)),
]


@pytest.mark.parametrize('shape,ksize,dilate', CASES)
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_forward_backward(shape, ksize, dilate, dtype):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, shape).astype(dtype)
    y = F.shift(x, ksize=ksize, dilate=dilate)
    assert y.dtype == dtype and y.shape == shape
    numpy.testing.assert_array_equal(y.array, shift_ref(x, ksize, dilate))
    gy = rng.uniform(-1, 1, shape).astype(dtype)
    ggx = rng.uniform(-1, 1, shape).astype(dtype)

    def f(v):
        return shift(v, ksize, dilate)

    gradient_check.check_backward(f, x, gy, dtype=numpy.float64, atol=1e-4, rtol=1e-3)
    gradient_check.check_double_backward(f, x, gy, ggx, dtype=numpy.float64, atol=1e-4,
                                         rtol=1e-3)


def test_matches_chainer_values():
    # Outputs of Chainer 7.8.1's F.shift for the same input.
    x = numpy.arange(1, 25, dtype=numpy.float32).reshape(1, 4, 2, 3)
    numpy.testing.assert_array_equal(
        shift(x, (1, 3), 1).array,
        [[[[2, 3, 0], [5, 6, 0]], [[0, 7, 8], [0, 10, 11]],
          [[13, 14, 15], [16, 17, 18]], [[19, 20, 21], [22, 23, 24]]]])
    numpy.testing.assert_array_equal(
        shift(x, (3, 1), (2, 1)).array,
        [[[[0, 0, 0], [0, 0, 0]], [[0, 0, 0], [0, 0, 0]],
          [[13, 14, 15], [16, 17, 18]], [[19, 20, 21], [22, 23, 24]]]])


def test_default_ksize_and_non_contiguous_input():
    rng = numpy.random.RandomState(1)
    x = numpy.asfortranarray(rng.uniform(-1, 1, (2, 10, 3, 4)).astype(numpy.float32))
    y = F.shift(minichainer.Variable(x))
    numpy.testing.assert_array_equal(y.array, shift_ref(x, (3, 3), (1, 1)))


def test_errors():
    x = numpy.zeros((1, 9, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match='kh must be odd'):
        F.shift(x, ksize=(2, 3))
    with pytest.raises(ValueError, match='kw must be odd'):
        F.shift(x, ksize=(3, 4))
    with pytest.raises(ValueError, match='dilate'):
        F.shift(x, dilate=0)
    with pytest.raises(type_check.InvalidType):
        F.shift(numpy.zeros((1, 8, 3, 3), numpy.float32))  # fewer channels than 3 * 3
    with pytest.raises(type_check.InvalidType):
        F.shift(numpy.zeros((1, 9, 3), numpy.float32))
    with pytest.raises(type_check.InvalidType):
        F.shift(numpy.zeros((1, 9, 3, 3), numpy.int32))
