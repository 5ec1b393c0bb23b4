import numpy as np

import minichainer.links as L

from .. import _util
from .test_convolution_2d import conv_ref


def test_depthwise_forward_and_shapes():
    link = L.DepthwiseConvolution2D(3, 2, 2, stride=1, pad=1, initial_bias=0.5)
    assert link.W.shape == (2, 3, 2, 2) and link.b.shape == (6,)
    x = np.random.randn(2, 3, 4, 4).astype(np.float32)
    y = link(x)
    # Output channel c * multiplier + m is input channel c filtered by W[m, c].
    W = link.W.array
    for c in range(3):
        for m in range(2):
            expected = conv_ref(x[:, c:c + 1], W[m:m + 1, c:c + 1], None, 1, 1)[:, 0]
            np.testing.assert_allclose(y.array[:, c * 2 + m], expected + 0.5, rtol=1e-4,
                                       atol=1e-5)


def test_depthwise_default_initializer_and_lazy():
    np.random.seed(3)
    link = L.DepthwiseConvolution2D(3, 2, 2)
    # HeNormal(1/sqrt(2)) has the LeCun standard deviation.
    np.testing.assert_allclose(link.W.array, _util.lecun(3, (2, 3, 2, 2)), rtol=1e-6)
    lazy = L.DepthwiseConvolution2D(None, 2, 3, nobias=True)
    assert lazy.W.array is None and lazy.b is None
    assert lazy(np.ones((1, 4, 5, 5), np.float32)).shape == (1, 8, 3, 3)
    assert lazy.W.shape == (2, 4, 3, 3)


def test_dilated_forward_and_lazy():
    link = L.DilatedConvolution2D(2, 3, 3, pad=2, dilate=2, initial_bias=1.0)
    x = np.random.randn(1, 2, 6, 6).astype(np.float32)
    np.testing.assert_allclose(
        link(x).array, conv_ref(x, link.W.array, link.b.array, 1, 2, 2), rtol=1e-4,
        atol=1e-5)
    np.random.seed(1)
    lazy = L.DilatedConvolution2D(4, 2, dilate=2)
    assert lazy(np.ones((1, 3, 5, 5), np.float32)).shape == (1, 4, 3, 3)
    np.testing.assert_array_equal(lazy.W.array, _util.lecun(1, (4, 3, 2, 2)))


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.DepthwiseConvolution2D(2, 2, 2), tmp_path)
    _util.check_npz_round_trip(lambda: L.DilatedConvolution2D(2, 2, 2), tmp_path)
    _util.check_copy_modes(L.DepthwiseConvolution2D(2, 2, 2))
    _util.check_copy_modes(L.DilatedConvolution2D(2, 2, 2))
