"""Bilinear sampler of a spatial transformer (`F.spatial_transformer_sampler`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.array.spatial_transformer_grid import _reject_kwargs
from minichainer.utils import scatter
from minichainer.utils import type_check


class _Taps:
    """The 2x2 bilinear neighbourhood of every sampling point in the zero-padded input.

    `x` is padded by one pixel on each side so that points up to one pixel outside
    the image blend with zeros.  `index` (4, B, P) holds flat positions in the padded
    `(H + 2) * (W + 2)` plane of the taps (v0, u0), (v0, u1), (v1, u0), (v1, u1);
    `wu0 = u - u0`, `wu1 = u1 - u` and likewise for v.
    """

    def __init__(self, grid, height, width):
        xp = backend.get_array_module(grid)
        n = grid.shape[0]
        g = grid.reshape(n, 2, -1)
        # From [-1, 1] to pixel coordinates of the padded image.
        self.u = (g[:, 0] + 1) * (width - 1) / 2 + 1
        self.v = (g[:, 1] + 1) * (height - 1) / 2 + 1
        u = self.u.clip(0, width + 1)
        v = self.v.clip(0, height + 1)
        # fmin/fmax keep the tap indices finite for NaN points (whose output is NaN).
        u0 = xp.fmax(xp.fmin(xp.floor(u), width), 0)
        v0 = xp.fmax(xp.fmin(xp.floor(v), height), 0)
        self.wu0 = u - u0
        self.wu1 = (u0 + 1) - u
        self.wv0 = v - v0
        self.wv1 = (v0 + 1) - v
        row = width + 2
        base = v0.astype(numpy.intp) * row + u0.astype(numpy.intp)
        self.index = xp.stack((base, base + 1, base + row, base + row + 1))
        self.plane = (height + 2) * row

    def weights(self, dtype):
        wu0, wu1, wv0, wv1 = (w.astype(dtype, copy=False)
                              for w in (self.wu0, self.wu1, self.wv0, self.wv1))
        return wu0, wu1, wv0, wv1

    def gather(self, x):
        """The four tap values `(4, B, C, P)` of the padded `x`."""
        xp = backend.get_array_module(x)
        n, c = x.shape[:2]
        x_pad = xp.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)), mode='constant')
        flat = x_pad.reshape(n, c, self.plane)
        return [xp.take_along_axis(flat, idx[:, None, :], axis=2) for idx in self.index]


class SpatialTransformerSampler(function_node.FunctionNode):
    """Bilinear sampling of `x` (B, C, H, W) at `grid` (B, 2, H_O, W_O)."""

    def __call__(self, x, grid):
        # Chainer's class is an old-style Function, called directly on its inputs.
        return self.apply((x, grid))[0]

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'grid'))
        x_type, grid_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            grid_type.dtype == x_type.dtype,
            x_type.ndim == 4,
            grid_type.ndim == 4,
        )
        type_check.expect(
            grid_type.shape[1] == 2,
            x_type.shape[0] == grid_type.shape[0],
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, grid = inputs
        taps = _Taps(grid, *x.shape[2:])
        wu0, wu1, wv0, wv1 = taps.weights(x.dtype)
        x1, x2, x3, x4 = taps.gather(x)
        y = (wu1 * wv1)[:, None] * x1
        y += (wu0 * wv1)[:, None] * x2
        y += (wu1 * wv0)[:, None] * x3
        y += (wu0 * wv0)[:, None] * x4
        return y.reshape(x.shape[:2] + grid.shape[2:]),

    def backward(self, indexes, grad_outputs):
        x, grid = self.get_retained_inputs()
        gx, ggrid = SpatialTransformerSamplerGrad().apply((x, grid) + grad_outputs)
        return gx, ggrid


class SpatialTransformerSamplerGrad(function_node.FunctionNode):
    """Gradients of `SpatialTransformerSampler` w.r.t. `x` and `grid`.

    Not differentiable itself (neither is Chainer's sampler).
    """

    def forward(self, inputs):
        x, grid, gy = inputs
        xp = backend.get_array_module(x)
        n, c, height, width = x.shape
        taps = _Taps(grid, height, width)
        wu0, wu1, wv0, wv1 = taps.weights(gy.dtype)
        gy = gy.reshape(n, c, -1)

        # d y / d u and d y / d v, summed over channels against gy.
        x1, x2, x3, x4 = taps.gather(x)
        du = (wv1[:, None] * (x2 - x1) + wv0[:, None] * (x4 - x3))
        dv = (wu1[:, None] * (x3 - x1) + wu0[:, None] * (x4 - x2))
        gu = (du * gy).sum(axis=1) * ((width - 1) / 2.)
        gv = (dv * gy).sum(axis=1) * ((height - 1) / 2.)
        # No gradient where the point was clipped to the padded border.
        gu *= (taps.u > 0) & (taps.u < width + 1)
        gv *= (taps.v > 0) & (taps.v < height + 1)
        ggrid = xp.stack((gu, gv), axis=1).reshape(grid.shape).astype(grid.dtype, copy=False)

        # Scatter gy back onto the four taps of every point.
        vals = xp.stack(((wu1 * wv1)[:, None] * gy, (wu0 * wv1)[:, None] * gy,
                         (wu1 * wv0)[:, None] * gy, (wu0 * wv0)[:, None] * gy))
        offset = (xp.arange(n * c) * taps.plane).reshape(1, n, c, 1)
        index = taps.index[:, :, None, :] + offset
        gx = scatter.bincount(index.ravel(), n * c * taps.plane, weights=vals.ravel())
        gx = gx.reshape(n, c, height + 2, width + 2)[:, :, 1:-1, 1:-1]
        return xp.ascontiguousarray(gx).astype(x.dtype, copy=False), ggrid

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'spatial_transformer_sampler does not support double backpropagation '
            '(Chainer does not either)')


def spatial_transformer_sampler(x, grid, **kwargs):
    """Differentiable bilinear image sampler of a spatial transformer.

    `y[b, :, i, j]` is `x[b]` bilinearly interpolated at `grid[b, :, i, j]`
    (`(x, y)` coordinates in `[-1, 1]`, `(-1, -1)` being the upper-left pixel).
    Points outside the image blend with zeros (the input is zero-padded).

    Args:
        x (Variable or ndarray): `(n, c_I, h, w)` float input.
        grid (Variable or ndarray): `(n, 2, h_O, w_O)` sampling points
            of the same dtype, e.g. from
            [`spatial_transformer_grid`][minichainer.functions.array.spatial_transformer_grid.spatial_transformer_grid].

    Returns:
        Variable: `(n, c_I, h_O, w_O)`.

    See [Spatial Transformer Networks](https://arxiv.org/abs/1506.02025).
    """
    _reject_kwargs('spatial_transformer_sampler', kwargs)
    return SpatialTransformerSampler()(x, grid)
