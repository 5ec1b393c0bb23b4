import numpy as np
import pytest

import minichainer.functions.connection.deconvolution_2d  # noqa: F401
import minichainer.links as L

from .. import _util


def deconv_ref(x, W, b, stride, pad):
    # Scatter each input pixel times its filter (W: in_c, out_c, kh, kw).
    n, c, h, w = x.shape
    _, out_c, kh, kw = W.shape
    full = np.zeros((n, out_c, (h - 1) * stride + kh, (w - 1) * stride + kw))
    for i in range(h):
        for j in range(w):
            full[:, :, i * stride:i * stride + kh, j * stride:j * stride + kw] += \
                np.einsum('nc,cokl->nokl', x[:, :, i, j], W)
    y = full[:, :, pad:full.shape[2] - pad, pad:full.shape[3] - pad]
    if b is not None:
        y = y + b[None, :, None, None]
    return y


@pytest.mark.parametrize('stride, pad', [(1, 0), (2, 1)])
def test_forward_matches_reference(stride, pad):
    link = L.Deconvolution2D(3, 4, 3, stride=stride, pad=pad, initial_bias=0.1)
    x = np.random.randn(2, 3, 4, 5).astype(np.float32)
    y = link(x)
    assert link.W.shape == (3, 4, 3, 3)
    np.testing.assert_allclose(y.array, deconv_ref(x, link.W.array, link.b.array, stride,
                                                   pad), rtol=1e-4, atol=1e-5)


def test_initialization_and_lazy_form():
    np.random.seed(6)
    link = L.Deconvolution2D(2, 5, 3)
    np.testing.assert_array_equal(link.W.array, _util.lecun(6, (2, 5, 3, 3)))
    lazy = L.Deconvolution2D(4, 2, stride=2, outsize=(5, 5))
    y = lazy(np.ones((1, 3, 2, 2), np.float32))
    assert lazy.W.shape == (3, 4, 2, 2) and y.shape == (1, 4, 5, 5)
    assert L.Deconvolution is L.Deconvolution2D


def test_groups_and_bad_input():
    link = L.Deconvolution2D(4, 6, 2, groups=2)
    assert link.W.shape == (4, 3, 2, 2)
    assert link(np.ones((1, 4, 3, 3), np.float32)).shape == (1, 6, 4, 4)
    with pytest.raises(ValueError, match='groups'):
        L.Deconvolution2D(3, 4, 2, groups=2)
    with pytest.raises(ValueError, match='initial_bias'):
        L.Deconvolution2D(3, 4, 2, initial_bias=np.zeros(3, np.float32))


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.Deconvolution2D(2, 3, 2), tmp_path)
    _util.check_copy_modes(L.Deconvolution2D(2, 3, 2))
