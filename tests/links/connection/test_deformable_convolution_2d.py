import numpy as np
import pytest

import minichainer
import minichainer.functions as F
import minichainer.links as L
from minichainer import gradient_check
from minichainer.links.connection.deformable_convolution_2d import \
    DeformableConvolution2DSampler

from .. import _util


def test_parameters_defaults_and_rng():
    np.random.seed(7)
    link = L.DeformableConvolution2D(3, 4, (3, 2), stride=2, pad=1)
    shapes = {name: p.shape for name, p in link.namedparams()}
    assert shapes == {'/offset_conv/W': (12, 3, 3, 2), '/offset_conv/b': (12,),
                      '/deform_conv/W': (4, 3, 3, 2), '/deform_conv/b': (4,)}
    # Only the offset convolution draws (LeCunNormal); the deformable filter starts at 0.
    np.testing.assert_array_equal(link.offset_conv.W.array, _util.lecun(7, (12, 3, 3, 2)))
    assert not link.offset_conv.b.array.any()
    assert not link.deform_conv.W.array.any() and not link.deform_conv.b.array.any()
    assert link.deform_conv.stride == (2, 2) and link.deform_conv.pad == (1, 1)
    nobias = L.DeformableConvolution2D(3, 4, 3, offset_nobias=True, deform_nobias=True)
    assert nobias.offset_conv.b is None and nobias.deform_conv.b is None


def test_forward_composes_offset_conv_and_sampler():
    rng = np.random.RandomState(0)
    link = L.DeformableConvolution2D(
        2, 3, 3, stride=(1, 2), pad=1, offset_initialW=minichainer.initializers.Normal(0.3),
        offset_initial_bias=minichainer.initializers.Normal(0.5),
        deform_initialW=minichainer.initializers.Normal(1.0),
        deform_initial_bias=minichainer.initializers.Normal(1.0))
    x = rng.uniform(-1, 1, (2, 2, 5, 6)).astype(np.float32)
    y = link(x)
    offset = F.convolution_2d(x, link.offset_conv.W, link.offset_conv.b, (1, 2), 1)
    expect = F.deformable_convolution_2d_sampler(
        x, offset, link.deform_conv.W, link.deform_conv.b, (1, 2), 1)
    assert y.shape == (2, 3, 5, 3)
    np.testing.assert_allclose(y.array, expect.array, rtol=1e-6, atol=1e-6)
    # With zero offsets the layer is an ordinary convolution.
    link.offset_conv.W.array[...] = 0
    link.offset_conv.b.array[...] = 0
    np.testing.assert_allclose(
        link(x).array,
        F.convolution_2d(x, link.deform_conv.W, link.deform_conv.b, (1, 2), 1).array,
        rtol=1e-5, atol=1e-5)


def test_matches_chainer_values():
    # Chainer 7.8.1 with the same seed, arguments and input.
    np.random.seed(0)
    link = L.DeformableConvolution2D(2, 2, 2, stride=2, pad=1,
                                     deform_initialW=minichainer.initializers.Normal(0.5))
    x = (np.arange(36, dtype=np.float32).reshape(2, 2, 3, 3) % 7 - 3) / 3
    np.testing.assert_allclose(link(x).array.ravel(), [
        0.06690764, 0.42586675, 0.03604754, -1.1171137, 0.17928448, 0.02090551,
        -0.22731897, 0.16504443, 0.0090629, -0.39600465, 0.00413383, 0.02251838,
        -0.23194458, -0.01564904, 0.16375947, -0.21387343], rtol=1e-5, atol=1e-6)


def test_lazy_initialization():
    link = L.DeformableConvolution2D(None, 2, 3, pad=1)
    assert link.offset_conv.W.array is None and link.deform_conv.W.array is None
    assert link.deform_conv.b.array is None  # created together with W, as in Chainer
    y = link(np.ones((1, 4, 3, 3), np.float32))
    assert y.shape == (1, 2, 3, 3)
    assert link.offset_conv.W.shape == (18, 4, 3, 3)
    assert link.deform_conv.W.shape == (2, 4, 3, 3) and link.deform_conv.b.shape == (2,)


@pytest.mark.parametrize('nobias', [False, True])
def test_backward(nobias):
    rng = np.random.RandomState(2)
    link = L.DeformableConvolution2D(
        2, 2, 2, pad=1, offset_nobias=nobias, deform_nobias=nobias,
        offset_initialW=minichainer.initializers.Uniform(0.3),
        deform_initialW=minichainer.initializers.Normal(1.0),
        deform_initial_bias=minichainer.initializers.Normal(1.0))
    x = rng.uniform(-1, 1, (1, 2, 3, 3)).astype(np.float32)
    gy = rng.uniform(-1, 1, (1, 2, 4, 4)).astype(np.float32)
    params = [link.deform_conv.W, link.offset_conv.W]
    if not nobias:
        params += [link.deform_conv.b, link.offset_conv.b]
    gradient_check.check_backward(link, x, gy, tuple(params), dtype=np.float64,
                                  atol=1e-3, rtol=1e-2)


def test_sampler_link():
    rng = np.random.RandomState(3)
    link = DeformableConvolution2DSampler(2, 3, (2, 3), stride=1, pad=(0, 1),
                                          initialW=minichainer.initializers.Normal(1))
    x = rng.uniform(-1, 1, (2, 2, 4, 4)).astype(np.float32)
    offset = rng.uniform(-1, 1, (2, 12, 3, 4)).astype(np.float32)
    np.testing.assert_allclose(
        link(x, offset).array,
        F.deformable_convolution_2d_sampler(x, offset, link.W, link.b, 1, (0, 1)).array,
        rtol=1e-6)
    assert link.initialW is not None
    lazy = DeformableConvolution2DSampler(None, 3, 2, nobias=True)
    assert lazy.initialW is None and lazy.W.array is None and lazy.b is None
    lazy(x, offset[:, :8])
    assert lazy.W.shape == (3, 2, 2, 2) and not lazy.W.array.any()


def test_serialization_and_copy(tmp_path):
    def make():
        return L.DeformableConvolution2D(
            2, 3, 2, deform_initialW=minichainer.initializers.Normal(1),
            offset_initial_bias=minichainer.initializers.Normal(1))
    src, _ = _util.check_npz_round_trip(make, tmp_path)
    assert sorted(_util.param_arrays(src)) == [
        '/deform_conv/W', '/deform_conv/b', '/offset_conv/W', '/offset_conv/b']
    _util.check_copy_modes(src)
