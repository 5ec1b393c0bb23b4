"""The N-dimensional deconvolution (transposed convolution) functions:
`deconvolution_nd`, `deconvolution_1d`, `deconvolution_3d`.

The forward is the convolution's data gradient (`W.T @ x` then `col2im`, or a
convolution of the padded input for stride 1); the backward is a convolution (data
gradient) and the convolution's filter gradient. The function node, `DeconvolutionND`,
lives in the convolution engine (`functions/connection/convolution_engine.py`) and is
re-exported here, where Chainer has it.
"""
from minichainer.functions.connection import convolution_engine as engine
from minichainer.functions.connection.convolution_engine import DeconvolutionND  # noqa: F401


def deconvolution_nd(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """N-dimensional deconvolution of `x` (n, c_I, d_1..d_N) with `W` (c_I, c_O/groups, k...).

    The output size is `outsize` or `s * (d - 1) + k' - 2 * p` per axis.

    Raises:
        ValueError: a non-positive `stride`/`dilate`/`groups` or kernel size, a
            negative `pad`, `groups` not dividing the channels, or a non-positive
            output size (also an `AssertionError`, as Chainer raises there).
    """
    ndim = engine.spatial_ndim('deconvolution_nd', x)
    engine.parse_params('deconvolution_nd', ndim, stride, pad, dilate, groups, x.shape)
    func = engine.DeconvolutionND(ndim, stride, pad, outsize, dilate=dilate, groups=groups)
    args = (x, W) if b is None else (x, W, b)
    y, = func.apply(args)
    return y


def deconvolution_1d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """1-D deconvolution (`deconvolution_nd` on 3-D input).

    Raises:
        ValueError: if `x` is not 3-dimensional.
    """
    engine.check_spatial_ndim(x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


def deconvolution_3d(x, W, b=None, stride=1, pad=0, outsize=None, dilate=1, groups=1):
    """3-D deconvolution (`deconvolution_nd` on 5-D input).

    Raises:
        ValueError: if `x` is not 5-dimensional.
    """
    engine.check_spatial_ndim(x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
