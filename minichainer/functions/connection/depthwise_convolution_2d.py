"""Two-dimensional depthwise convolution."""
from minichainer.functions.connection.convolution_2d import convolution_2d
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.transpose import transpose


def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0):
    """Depthwise 2-D convolution: each input channel is convolved with its own filters.

    Args:
        x (Variable or ndarray): input of shape (n, c_I, h, w).
        W (Variable or ndarray): filters of shape (c_M, c_I, kh, kw), c_M being the
            channel multiplier.
        b (Variable or ndarray or None): bias of length c_M * c_I.
        stride, pad (int or pair of ints): as in
            [`convolution_2d`][minichainer.functions.connection.convolution_2d.convolution_2d].

    Returns:
        Variable: output of shape (n, c_I * c_M, h_O, w_O); output channel
        `i * c_M + m` is input channel `i` convolved with `W[m, i]`.

    It is computed as a grouped
    [`convolution_2d`][minichainer.functions.connection.convolution_2d.convolution_2d] (as Chainer 7
    does).
    """
    multiplier, in_channels, kh, kw = W.shape
    W = transpose(W, (1, 0, 2, 3))
    W = reshape(W, (multiplier * in_channels, 1, kh, kw))
    return convolution_2d(x, W, b, stride, pad, groups=in_channels)
