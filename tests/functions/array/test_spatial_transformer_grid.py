import numpy
import pytest

import minichainer.functions as F
from minichainer.functions.array import spatial_transformer_grid as mod
from minichainer.utils import type_check


def _grid_reference(theta, out_h, out_w):
    n = theta.shape[0]
    grid = numpy.empty((n, 2, out_h, out_w))
    for i in range(out_h):
        for j in range(out_w):
            target = numpy.array([-1 + 2. * j / max(out_w - 1, 1) if out_w > 1 else -1.,
                                  -1 + 2. * i / max(out_h - 1, 1) if out_h > 1 else -1.,
                                  1.])
            grid[:, :, i, j] = theta.astype(numpy.float64) @ target
    return grid


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('output_shape', [(4, 5), (1, 3), (2, 1)])
def test_forward_matches_reference(dtype, output_shape, check_grads):
    rng = numpy.random.RandomState(0)
    theta = rng.uniform(-1, 1, (3, 2, 3)).astype(dtype)
    grid = F.spatial_transformer_grid(theta, output_shape)
    assert grid.dtype == dtype
    assert grid.shape == (3, 2) + output_shape
    tol = 5e-3 if dtype == numpy.float16 else 1e-6
    numpy.testing.assert_allclose(grid.array, _grid_reference(theta, *output_shape),
                                  atol=tol, rtol=tol)

    gy = rng.uniform(-1, 1, grid.shape).astype(dtype)
    ggx = rng.uniform(-1, 1, theta.shape).astype(dtype)
    check_grads(lambda t: F.spatial_transformer_grid(t, output_shape), theta, gy, ggx,
                dtype)


def test_matches_chainer():
    theta = numpy.array([[[0.8, -0.3, 0.1], [0.2, 1.1, -0.25]]], numpy.float32)
    grid = F.spatial_transformer_grid(theta, (2, 3))
    expected = [[[[-0.4, 0.4, 1.2], [-1., -0.2, 0.6]],
                 [[-1.55, -1.35, -1.15], [0.65, 0.85, 1.05]]]]
    numpy.testing.assert_allclose(grid.array, expected, rtol=1e-6, atol=1e-7)


def test_identity_theta_gives_the_normalised_pixel_grid():
    theta = numpy.array([[[1., 0., 0.], [0., 1., 0.]]], numpy.float32)
    grid = mod.SpatialTransformerGrid((3, 5))(theta)
    xs = numpy.linspace(-1, 1, 5)
    ys = numpy.linspace(-1, 1, 3)
    numpy.testing.assert_allclose(grid.array[0, 0], numpy.tile(xs, (3, 1)))
    numpy.testing.assert_allclose(grid.array[0, 1], numpy.tile(ys[:, None], (1, 5)))


@pytest.mark.parametrize('shape, dtype', [
    ((2, 3, 3), numpy.float32), ((2, 2, 2), numpy.float32), ((2, 3), numpy.float32),
    ((1, 2, 3), numpy.int32)])
def test_invalid_theta(shape, dtype):
    with pytest.raises(type_check.InvalidType):
        F.spatial_transformer_grid(numpy.zeros(shape, dtype), (2, 2))


@pytest.mark.parametrize('output_shape', [(2,), 3, (0, 2), (2, 1.5)])
def test_invalid_output_shape(output_shape):
    with pytest.raises(ValueError, match='output_shape'):
        F.spatial_transformer_grid(numpy.zeros((1, 2, 3), numpy.float32), output_shape)


def test_removed_and_unknown_keywords():
    theta = numpy.zeros((1, 2, 3), numpy.float32)
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_grid(theta, (2, 2), use_cudnn=False)
    with pytest.raises(TypeError, match='foo'):
        F.spatial_transformer_grid(theta, (2, 2), foo=1)
