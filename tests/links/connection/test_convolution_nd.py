import numpy as np
import pytest

import minichainer.links as L

from .. import _util
from .test_convolution_2d import conv_ref
from .test_deconvolution_2d import deconv_ref


def test_convolution_nd_2d_case_matches_reference():
    link = L.ConvolutionND(2, 3, 4, 2, stride=1, pad=1, initial_bias=0.3)
    assert link.W.shape == (4, 3, 2, 2)
    x = np.random.randn(2, 3, 4, 4).astype(np.float32)
    np.testing.assert_allclose(link(x).array, conv_ref(x, link.W.array, link.b.array, 1, 1),
                               rtol=1e-4, atol=1e-5)


def test_convolution_1d_3d_shapes_and_lazy():
    np.random.seed(2)
    c1 = L.Convolution1D(None, 4, 3)
    assert c1(np.ones((2, 2, 6), np.float32)).shape == (2, 4, 4)
    np.testing.assert_array_equal(c1.W.array, _util.lecun(2, (4, 2, 3)))
    c3 = L.Convolution3D(2, 3, (1, 2, 3), groups=1)
    assert c3(np.ones((1, 2, 3, 3, 4), np.float32)).shape == (1, 3, 3, 2, 2)
    with pytest.raises(ValueError, match='groups'):
        L.ConvolutionND(2, 3, 4, 2, groups=2)
    with pytest.raises(ValueError, match='length'):
        L.ConvolutionND(2, 3, 4, (2, 2, 2))


def test_deconvolution_nd():
    link = L.DeconvolutionND(2, 3, 2, 3, stride=2, pad=1)
    assert link.W.shape == (3, 2, 3, 3)
    x = np.random.randn(1, 3, 3, 3).astype(np.float32)
    np.testing.assert_allclose(link(x).array, deconv_ref(x, link.W.array, link.b.array, 2, 1),
                               rtol=1e-4, atol=1e-5)
    d1 = L.Deconvolution1D(None, 4, 2)
    assert d1(np.ones((1, 3, 5), np.float32)).shape == (1, 4, 6) and d1.W.shape == (3, 4, 2)
    d3 = L.Deconvolution3D(1, 2, 2, outsize=(3, 3, 3))
    assert d3(np.ones((1, 1, 2, 2, 2), np.float32)).shape == (1, 2, 3, 3, 3)


def test_mlp_convolution_and_parameter_links():
    m = L.MLPConvolution2D(3, (4, 5), 3, pad=1)
    assert [n for n, _ in m.namedparams()] == ['/0/W', '/0/b', '/1/W', '/1/b']
    x = np.random.randn(1, 3, 4, 4).astype(np.float32)
    h = np.maximum(conv_ref(x, m[0].W.array, m[0].b.array, 1, 1), 0)
    y = conv_ref(h.astype(np.float32), m[1].W.array, m[1].b.array)  # no activation last
    np.testing.assert_allclose(m(x).array, y, rtol=1e-4, atol=1e-5)
    p = L.Parameter(np.arange(3, dtype=np.float32))
    assert p() is p.W and [n for n, _ in p.namedparams()] == ['/W']


def test_serialization_and_copy(tmp_path):
    _util.check_npz_round_trip(lambda: L.Convolution3D(2, 2, 2), tmp_path)
    _util.check_npz_round_trip(lambda: L.DeconvolutionND(1, 2, 2, 2), tmp_path)
    _util.check_copy_modes(L.ConvolutionND(1, 2, 2, 2))
