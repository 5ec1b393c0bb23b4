import numpy
import pytest

import minichainer
import minichainer.functions as F
from minichainer import gradient_check
from minichainer.utils import type_check


def _sampler_reference(x, grid):
    """Bilinear interpolation of zero-padded ``x`` at each grid point."""
    n, c, h, w = x.shape
    out_h, out_w = grid.shape[2:]
    padded = numpy.zeros((n, c, h + 2, w + 2))
    padded[:, :, 1:-1, 1:-1] = x
    y = numpy.zeros((n, c, out_h, out_w))
    for b in range(n):
        for i in range(out_h):
            for j in range(out_w):
                # pixel coordinates in the padded image, clamped onto it
                u = min(max((float(grid[b, 0, i, j]) + 1) * (w - 1) / 2 + 1, 0), w + 1)
                v = min(max((float(grid[b, 1, i, j]) + 1) * (h - 1) / 2 + 1, 0), h + 1)
                u0 = min(int(numpy.floor(u)), w)
                v0 = min(int(numpy.floor(v)), h)
                du, dv = u - u0, v - v0
                y[b, :, i, j] = ((1 - du) * (1 - dv) * padded[b, :, v0, u0]
                                 + du * (1 - dv) * padded[b, :, v0, u0 + 1]
                                 + (1 - du) * dv * padded[b, :, v0 + 1, u0]
                                 + du * dv * padded[b, :, v0 + 1, u0 + 1])
    return y


def _smooth_grid(rng, n, h, w, out_h, out_w, dtype):
    """Points at fractional pixel positions 0.2..0.8 inside a cell, some beyond the border."""
    u = rng.randint(0, w + 1, (n, out_h, out_w)) + rng.uniform(0.2, 0.8, (n, out_h, out_w))
    v = rng.randint(0, h + 1, (n, out_h, out_w)) + rng.uniform(0.2, 0.8, (n, out_h, out_w))
    return numpy.stack(((u - 1) * 2 / (w - 1) - 1, (v - 1) * 2 / (h - 1) - 1),
                       axis=1).astype(dtype)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
def test_forward_matches_reference(dtype):
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (2, 3, 4, 5)).astype(dtype)
    grid = rng.uniform(-1.6, 1.6, (2, 2, 3, 6)).astype(dtype)
    y = F.spatial_transformer_sampler(x, grid)
    assert y.dtype == dtype
    assert y.shape == (2, 3, 3, 6)
    tol = 1e-2 if dtype == numpy.float16 else 1e-5
    numpy.testing.assert_allclose(y.array, _sampler_reference(x, grid), atol=tol, rtol=tol)


def test_matches_chainer():
    x = (numpy.arange(12, dtype=numpy.float32).reshape(1, 1, 3, 4) - 5) / 4
    grid = numpy.array([[[[-1., -0.3, 0.5, 1.2], [0.9, -1.4, 0.1, 2.5]],
                         [[-1., 0.2, 0.7, -1.3], [1., 0.4, -0.9, 0.05]]]], numpy.float32)
    xv, gv = minichainer.Variable(x), minichainer.Variable(grid)
    y = F.spatial_transformer_sampler(xv, gv)
    numpy.testing.assert_allclose(
        y.array, [[[[-1.25, 0.2125, 1.0125, -0.245], [1.4625, 0.06, -0.7375, 0.]]]],
        rtol=1e-5, atol=1e-6)
    y.grad = numpy.array([[[[1., -2., 0.5, 1.5], [0.3, 1., -1., 2.]]]], numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(
        xv.grad, [[[[1., -0.315, -0.585, 0.735], [0.24, -1.555, -0.0325, 0.0375],
                    [0.16, -0.38, 0.2875, 0.3425]]]], rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(
        gv.grad, [[[[0.375, -0.75, 0.1875, 0.7875], [0.1125, 0.225, -0.375, 0.]],
                   [[1., -2., 0.5, -0.525], [-0.43875, 0.4, -1., 0.]]]], rtol=1e-5, atol=1e-6)


def test_nan_point_gives_nan_without_touching_other_outputs():
    x = numpy.ones((1, 2, 3, 3), numpy.float32)
    grid = numpy.array([[[[numpy.nan, 0.]], [[0., 0.]]]], numpy.float32)
    xv = minichainer.Variable(x)
    y = F.spatial_transformer_sampler(xv, grid)
    assert numpy.isnan(y.array[0, :, 0, 0]).all()
    numpy.testing.assert_allclose(y.array[0, :, 0, 1], [1., 1.])
    y.grad = numpy.array([[[[0., 1.]], [[0., 1.]]]], numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(xv.grad[0, :, 1, 1], [1., 1.])


def test_identity_transform_reproduces_the_input():
    x = numpy.random.RandomState(1).uniform(-1, 1, (2, 3, 4, 5)).astype(numpy.float32)
    theta = numpy.tile(numpy.array([[1., 0., 0.], [0., 1., 0.]], numpy.float32), (2, 1, 1))
    y = F.spatial_transformer_sampler(x, F.spatial_transformer_grid(theta, (4, 5)))
    numpy.testing.assert_allclose(y.array, x, atol=1e-6)


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_gradients(dtype):
    rng = numpy.random.RandomState(2)
    x = rng.uniform(-1, 1, (2, 2, 4, 5)).astype(dtype)
    grid = _smooth_grid(rng, 2, 4, 5, 3, 4, dtype)
    gy = rng.uniform(-1, 1, (2, 2, 3, 4)).astype(dtype)
    tol = {'atol': 1e-3, 'rtol': 1e-3} if dtype == numpy.float32 else {}
    gradient_check.check_backward(F.spatial_transformer_sampler, (x, grid), gy, eps=1e-3,
                                  **tol)


def test_no_double_backprop():
    x = minichainer.Variable(numpy.ones((1, 1, 2, 2), numpy.float32))
    grid = minichainer.Variable(numpy.zeros((1, 2, 1, 1), numpy.float32))
    y = F.spatial_transformer_sampler(x, grid)
    gx, = minichainer.grad([F.sum(y)], [grid], enable_double_backprop=True)
    with pytest.raises(NotImplementedError, match='double'):
        minichainer.grad([F.sum(gx * gx)], [x])


@pytest.mark.parametrize('x_shape, x_dtype, grid_shape, grid_dtype', [
    ((1, 1, 2, 2), numpy.float32, (1, 2, 2, 2), numpy.float64),
    ((1, 1, 2, 2), numpy.float32, (2, 2, 2, 2), numpy.float32),
    ((1, 1, 2, 2), numpy.float32, (1, 3, 2, 2), numpy.float32),
    ((1, 2, 2), numpy.float32, (1, 2, 2, 2), numpy.float32),
    ((1, 1, 2, 2), numpy.int32, (1, 2, 2, 2), numpy.int32)])
def test_invalid_types(x_shape, x_dtype, grid_shape, grid_dtype):
    with pytest.raises(type_check.InvalidType):
        F.spatial_transformer_sampler(numpy.zeros(x_shape, x_dtype),
                                      numpy.zeros(grid_shape, grid_dtype))


def test_removed_and_unknown_keywords():
    x = numpy.zeros((1, 1, 2, 2), numpy.float32)
    grid = numpy.zeros((1, 2, 2, 2), numpy.float32)
    with pytest.raises(ValueError, match='use_cudnn'):
        F.spatial_transformer_sampler(x, grid, use_cudnn=True)
    with pytest.raises(TypeError, match='bar'):
        F.spatial_transformer_sampler(x, grid, bar=1)
