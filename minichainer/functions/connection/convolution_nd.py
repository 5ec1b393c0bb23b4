"""The N-dimensional convolution functions: `convolution_nd`, `convolution_1d`,
`convolution_3d`.

They run on the convolution engine (`functions/connection/convolution_engine.py`), where
the function nodes live; `ConvolutionND` and `ConvolutionNDGradW` are re-exported here,
where Chainer has them. The link of the same name is
`links/connection/convolution_nd.py`; the patch helpers, `utils/conv_nd.py`.
"""
from minichainer.functions.connection import convolution_engine as engine
from minichainer.functions.connection.convolution_engine import ConvolutionND  # noqa: F401
from minichainer.functions.connection.convolution_engine import ConvolutionNDGradW  # noqa: F401,E501


def convolution_nd(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """N-dimensional convolution of `x` (n, c, d_1..d_N) with `W` (c_O, c/groups, k_1..k_N).

    Returns:
        Variable: output of shape (n, c_O, out_1..out_N),
        `out_i = (d_i + 2 p_i - k'_i) // s_i + 1` with `k'_i = k_i + (k_i - 1)(dilate_i - 1)`
        (`+ s_i - 1` in the numerator with `cover_all`).

    Raises:
        ValueError: a non-positive `stride`/`dilate`/`groups` or kernel size, a
            negative `pad`, a kernel larger than the padded input, or `groups` not
            dividing the channels.
    """
    ndim = engine.spatial_ndim('convolution_nd', x)
    engine.parse_params('convolution_nd', ndim, stride, pad, dilate, groups, x.shape)
    func = engine.ConvolutionND(ndim, stride, pad, cover_all, dilate=dilate, groups=groups)
    args = (x, W) if b is None else (x, W, b)
    y, = func.apply(args)
    return y


def convolution_1d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """1-D convolution (`convolution_nd` on 3-D input).

    Raises:
        ValueError: if `x` is not 3-dimensional.
    """
    engine.check_spatial_ndim(x, 1)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


def convolution_3d(x, W, b=None, stride=1, pad=0, cover_all=False, dilate=1, groups=1):
    """3-D convolution (`convolution_nd` on 5-D input).

    Raises:
        ValueError: if `x` is not 5-dimensional.
    """
    engine.check_spatial_ndim(x, 3)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
