"""Two-dimensional dilated convolution."""
from minichainer.functions.connection.convolution_2d import convolution_2d


def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1, cover_all=False):
    """Two-dimensional dilated convolution.

    Same as [`convolution_2d`][minichainer.functions.connection.convolution_2d.convolution_2d] with
    `dilate`: the filter taps are spaced `dilate` pixels apart, so the effective kernel size is
    `k + (k - 1)(d - 1)`. (Chainer has a separate old-style Function for this; here it runs the one
    N-d convolution engine.)
    """
    return convolution_2d(x, W, b, stride, pad, cover_all, dilate=dilate)
