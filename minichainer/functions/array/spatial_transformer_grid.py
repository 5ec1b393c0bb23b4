"""Sampling grid of an affine spatial transformer (`F.spatial_transformer_grid`)."""
import numbers

from minichainer import backend
from minichainer import function_node
from minichainer.utils import argument
from minichainer.utils import type_check

_USE_CUDNN_MESSAGE = ('The argument "use_cudnn" is not supported anymore. Use '
                      "chainer.using_config('use_cudnn', value) context where value can be "
                      '`always`, `never`, or `auto`.')


def _reject_kwargs(fname, kwargs):
    """Chainer's error for the removed `use_cudnn` keyword, TypeError for any other."""
    if kwargs:
        argument.check_unexpected_kwargs(kwargs, use_cudnn=_USE_CUDNN_MESSAGE)
        raise TypeError('{}() got unexpected keyword argument(s) {}'.format(
            fname, ', '.join(repr(k) for k in sorted(kwargs))))


def _target_coordinates(output_shape, dtype, xp):
    """`(3, H * W)` homogeneous target coordinates `(x, y, 1)` spanning [-1, 1]."""
    height, width = output_shape
    ys = xp.linspace(-1, 1, height, dtype=dtype)
    xs = xp.linspace(-1, 1, width, dtype=dtype)
    coords = xp.ones((3, height, width), dtype=dtype)
    coords[0] = xs[None, :]
    coords[1] = ys[:, None]
    return coords.reshape(3, height * width)


def _parse_output_shape(output_shape):
    try:
        height, width = output_shape
    except (TypeError, ValueError):
        raise ValueError('spatial_transformer_grid: output_shape must be a pair of '
                         'positive ints (h_O, w_O), got {!r}'.format(output_shape)) from None
    for v in (height, width):
        if not isinstance(v, numbers.Integral) or v <= 0:
            raise ValueError('spatial_transformer_grid: output_shape must be a pair of '
                             'positive ints (h_O, w_O), got {!r}'.format(output_shape))
    return int(height), int(width)


class SpatialTransformerGrid(function_node.FunctionNode):
    """`grid[b, :, i, j] = theta[b] @ (x_j, y_i, 1)` for a regular target grid."""

    def __init__(self, output_shape):
        self.output_shape = _parse_output_shape(output_shape)

    def __call__(self, theta):
        # Chainer's class is an old-style Function, called directly on its input.
        return self.apply((theta,))[0]

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('theta',))
        theta_type = in_types[0]
        type_check.expect(
            theta_type.dtype.kind == 'f',
            theta_type.ndim == 3,
        )
        type_check.expect(
            theta_type.shape[1] == 2,
            theta_type.shape[2] == 3,
        )

    def forward(self, inputs):
        theta, = inputs
        xp = backend.get_array_module(theta)
        coords = _target_coordinates(self.output_shape, theta.dtype, xp)
        grid = xp.matmul(theta, coords)
        return grid.reshape((theta.shape[0], 2) + self.output_shape),

    def backward(self, indexes, grad_outputs):
        return SpatialTransformerGridGrad(self.output_shape).apply(grad_outputs)


class SpatialTransformerGridGrad(function_node.FunctionNode):
    """Gradient of `SpatialTransformerGrid` w.r.t. `theta` (linear in ggrid)."""

    def __init__(self, output_shape):
        self.output_shape = output_shape

    def forward(self, inputs):
        ggrid, = inputs
        xp = backend.get_array_module(ggrid)
        coords = _target_coordinates(self.output_shape, ggrid.dtype, xp)
        g = ggrid.reshape(ggrid.shape[0], 2, -1)
        return xp.matmul(g, coords.T),

    def backward(self, indexes, grad_outputs):
        return SpatialTransformerGrid(self.output_shape).apply(grad_outputs)


def spatial_transformer_grid(theta, output_shape, **kwargs):
    """Sampling points of a 2-D affine spatial transformer.

    For every pixel `(i, j)` of an `output_shape = (h_O, w_O)` target image, with
    normalised target coordinates `x_j, y_i` spanning `[-1, 1]`, the source point is
    `theta[b] @ (x_j, y_i, 1)`.  Feed the result to
    [`spatial_transformer_sampler`][minichainer.functions.array.spatial_transformer_sampler.spatial_transformer_sampler].

    Args:
        theta (Variable or ndarray): `(n, 2, 3)` float affine matrices.
        output_shape (tuple of int): `(h_O, w_O)`.

    Returns:
        Variable: `(n, 2, h_O, w_O)`; channel 0 is the x (width)
        coordinate and channel 1 the y (height) coordinate, both in the `[-1, 1]`
        convention where `(-1, -1)` is the upper-left corner of the source image.

    See [Spatial Transformer Networks](https://arxiv.org/abs/1506.02025).
    """
    _reject_kwargs('spatial_transformer_grid', kwargs)
    return SpatialTransformerGrid(output_shape)(theta)
