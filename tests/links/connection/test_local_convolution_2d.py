import numpy as np
import pytest

import minichainer
import minichainer.links as L
from minichainer import gradient_check

from .. import _util


def local_conv_ref(x, W, b, stride):
    """Loop reference: output (o, i, j) uses its own filter W[o, i, j]."""
    sy, sx = stride
    out_c, oh, ow, c, kh, kw = W.shape
    y = np.zeros((x.shape[0], out_c, oh, ow))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, :, i * sy:i * sy + kh, j * sx:j * sx + kw].astype(np.float64)
            y[:, :, i, j] = np.tensordot(patch, W[:, i, j].astype(np.float64),
                                         ([1, 2, 3], [1, 2, 3]))
    if b is not None:
        y += b[None]
    return y


def test_explicit_shapes_initializers_and_forward():
    np.random.seed(4)
    link = L.LocalConvolution2D(3, 2, in_size=(5, 4), ksize=(3, 2),
                                initial_bias=minichainer.initializers.Normal(1.0))
    # W is drawn first (LeCunNormal over in_channels * kh * kw * h_O * w_O), then b.
    expect_W = _util.lecun(4, (2, 3, 3, 3, 3, 2))
    np.testing.assert_array_equal(link.W.array, expect_W)
    np.testing.assert_array_equal(
        link.b.array, np.random.RandomState(4).normal(size=expect_W.size + 18)[-18:]
        .astype(np.float32).reshape(2, 3, 3))
    x = np.random.uniform(-1, 1, (2, 3, 5, 4)).astype(np.float32)
    y = link(x)
    assert y.shape == (2, 2, 3, 3) and y.dtype == np.float32
    np.testing.assert_allclose(y.array, local_conv_ref(x, link.W.array, link.b.array, (1, 1)),
                               rtol=1e-5, atol=1e-5)


def test_matches_chainer_values():
    # Chainer 7.8.1 with the same seed, arguments and input.
    np.random.seed(0)
    link = L.LocalConvolution2D(2, 2, in_size=3, ksize=2,
                                initial_bias=minichainer.initializers.Uniform(1.0))
    x = (np.arange(36, dtype=np.float32).reshape(2, 2, 3, 3) % 7 - 3) / 3
    np.testing.assert_allclose(link(x).array.ravel(), [
        -1.1234958, 0.57943815, 0.08397064, -0.49082142, 0.27450544, -0.8602333,
        -0.37816146, 1.0456418, -0.71079195, 0.21348311, -0.03595175, -0.6232548,
        -0.16842198, -0.91304666, 0.58755994, 0.893037], rtol=1e-5, atol=1e-6)


def test_lazy_initialization_and_stride():
    for in_channels, in_size in ((None, 6), (3, None), (None, None)):
        link = L.LocalConvolution2D(in_channels, 4, in_size=in_size, ksize=3, stride=2)
        assert link.W.array is None and link.b.array is None
        x = np.random.uniform(-1, 1, (1, 3, 6, 7)).astype(np.float32)
        y = link(x)
        # Unlike Chainer 7, the parameter shape accounts for the stride.
        assert link.W.shape == (4, 2, 3, 3, 3, 3) and link.b.shape == (4, 2, 3)
        np.testing.assert_allclose(
            y.array, local_conv_ref(x, link.W.array, link.b.array, (2, 2)), rtol=1e-5,
            atol=1e-5)
    nobias = L.LocalConvolution2D(None, 2, ksize=2, nobias=True)
    assert nobias.b is None
    assert nobias(np.ones((1, 1, 3, 3), np.float32)).shape == (1, 2, 2, 2)


@pytest.mark.parametrize('nobias', [False, True])
def test_backward(nobias):
    rng = np.random.RandomState(1)
    link = L.LocalConvolution2D(2, 2, in_size=(4, 3), ksize=(2, 2), stride=(2, 1),
                                nobias=nobias, initial_bias=minichainer.initializers.Normal(1))
    x = rng.uniform(-1, 1, (2, 2, 4, 3)).astype(np.float32)
    gy = rng.uniform(-1, 1, (2, 2, 2, 2)).astype(np.float32)
    params = (link.W,) if nobias else (link.W, link.b)
    gradient_check.check_backward(link, x, gy, params, dtype=np.float64, atol=1e-4,
                                  rtol=1e-3)


def test_serialization_and_copy(tmp_path):
    src, _ = _util.check_npz_round_trip(
        lambda: L.LocalConvolution2D(2, 3, in_size=4, ksize=3,
                                     initial_bias=minichainer.initializers.Normal(1)),
        tmp_path)
    assert sorted(_util.param_arrays(src)) == ['/W', '/b']
    _util.check_copy_modes(src)


def test_errors():
    with pytest.raises(TypeError, match='ksize'):
        L.LocalConvolution2D(3, 2, in_size=4)
    with pytest.raises(ValueError, match='in_size'):
        L.LocalConvolution2D(3, 2, in_size=2, ksize=3)
    with pytest.raises(TypeError, match='out_channels'):
        L.LocalConvolution2D(3, None, in_size=4, ksize=3)
    with pytest.raises(TypeError, match='unexpected'):
        L.LocalConvolution2D(3, 2, in_size=4, ksize=3, pad=1)
    link = L.LocalConvolution2D(3, 2, in_size=4, ksize=3)
    with pytest.raises(minichainer.utils.type_check.InvalidType):
        link(np.zeros((1, 2, 4, 4), np.float32))  # 2 channels instead of 3
