import numpy as np
import pytest

import minichainer.links as L

from .. import _util


def conv_ref(x, W, b, stride=1, pad=0, dilate=1, groups=1):
    n, c, h, w = x.shape
    out_c, c_per_g, kh, kw = W.shape
    xp = np.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - (kh - 1) * dilate - 1) // stride + 1
    ow = (w + 2 * pad - (kw - 1) * dilate - 1) // stride + 1
    y = np.zeros((n, out_c, oh, ow))
    oc_per_g = out_c // groups
    for o in range(out_c):
        g = o // oc_per_g
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * c_per_g:(g + 1) * c_per_g,
                           i * stride:i * stride + (kh - 1) * dilate + 1:dilate,
                           j * stride:j * stride + (kw - 1) * dilate + 1:dilate]
                y[:, o, i, j] = (patch * W[o]).sum(axis=(1, 2, 3))
    if b is not None:
        y += b[None, :, None, None]
    return y


@pytest.mark.parametrize('stride, pad, dilate, groups', [
    (1, 0, 1, 1), (2, 1, 1, 1), (1, 1, 2, 1), (1, 0, 1, 2)])
def test_forward_matches_reference(stride, pad, dilate, groups):
    link = L.Convolution2D(4, 6, 3, stride=stride, pad=pad, dilate=dilate, groups=groups,
                           initial_bias=0.5)
    x = np.random.randn(2, 4, 7, 6).astype(np.float32)
    y = link(x)
    expected = conv_ref(x, link.W.array, link.b.array, stride, pad, dilate, groups)
    np.testing.assert_allclose(y.array, expected, rtol=1e-4, atol=1e-5)
    assert link.W.shape == (6, 4 // groups, 3, 3)


def test_default_initialization_matches_chainer_draw():
    np.random.seed(4)
    link = L.Convolution2D(3, 5, (2, 3))
    np.testing.assert_array_equal(link.W.array, _util.lecun(4, (5, 3, 2, 3)))
    assert (link.b.array == 0).all()


def test_lazy_two_argument_form():
    np.random.seed(8)
    link = L.Convolution2D(5, 3)
    assert link.W.array is None and link.out_channels == 5 and link.ksize == 3
    y = link(np.ones((1, 2, 4, 4), np.float32))
    assert y.shape == (1, 5, 2, 2)
    np.testing.assert_array_equal(link.W.array, _util.lecun(8, (5, 2, 3, 3)))


def test_nobias_and_alias():
    link = L.Convolution(2, 3, 1, nobias=True)
    assert link.b is None and isinstance(link, L.Convolution2D)
    x = np.random.randn(1, 2, 3, 3).astype(np.float32)
    np.testing.assert_allclose(link(x).array, conv_ref(x, link.W.array, None), rtol=1e-5)


def test_bad_arguments():
    with pytest.raises(ValueError, match='groups'):
        L.Convolution2D(4, 5, 3, groups=2)
    with pytest.raises(ValueError, match='groups'):
        L.Convolution2D(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match='deterministic'):
        L.Convolution2D(3, 4, 3, deterministic=True)
    with pytest.raises(TypeError, match='foo'):
        L.Convolution2D(3, 4, 3, foo=1)


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.Convolution2D(2, 3, 2), tmp_path)
    _util.check_copy_modes(L.Convolution2D(2, 3, 2))
