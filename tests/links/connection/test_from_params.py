import numpy as np
import pytest

import minichainer.links as L


@pytest.mark.parametrize('make, args', [
    (lambda: L.Convolution2D(4, 6, 3, stride=2, pad=1, groups=2),
     dict(stride=2, pad=1, groups=2)),
    (lambda: L.Deconvolution2D(4, 6, 2, stride=2, groups=2), dict(stride=2, groups=2)),
    (lambda: L.ConvolutionND(3, 2, 3, 2), {}),
    (lambda: L.Convolution1D(2, 3, 2, pad=1), dict(pad=1)),
    (lambda: L.Deconvolution3D(2, 3, 2), {}),
    (lambda: L.DeconvolutionND(1, 2, 3, 2, stride=2), dict(stride=2)),
])
def test_from_params_rebuilds_an_equivalent_link(make, args):
    link = make()
    link.b.array[...] = np.random.randn(*link.b.shape)
    clone = type(link).from_params(link.W, link.b, **args)
    assert type(clone) is type(link)
    np.testing.assert_array_equal(clone.W.array, link.W.array)
    assert clone.W.array is not link.W.array
    np.testing.assert_array_equal(clone.b.array, link.b.array)
    in_channels = link.W.shape[1] * args.get('groups', 1)
    if 'Deconvolution' in type(link).__name__:
        in_channels = link.W.shape[0]
    x = np.random.randn(*((1, in_channels) + (4,) * (link.W.ndim - 2))).astype(np.float32)
    np.testing.assert_allclose(clone(x).array, link(x).array, rtol=1e-6)


def test_from_params_bias_size_is_checked():
    W = np.zeros((3, 2, 2, 2), np.float32)
    with pytest.raises(ValueError, match='b must have 3'):
        L.Convolution2D.from_params(W, np.zeros(2, np.float32))
    assert L.Convolution2D.from_params(W, nobias=True).b is None
