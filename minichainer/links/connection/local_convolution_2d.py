"""The locally-connected (unshared-weight) 2-D convolution layer `LocalConvolution2D`."""
from minichainer import link
from minichainer.links._check import check_size
from minichainer.links.connection import parameter_setup
from minichainer.utils import conv

from minichainer.functions.connection import local_convolution_2d as _local_conv


class LocalConvolution2D(link.Link):
    """2-D convolution layer with a separate filter at every output position.

    Wraps [`local_convolution_2d`][minichainer.functions.connection.local_convolution_2d.local_convolution_2d]
    (no padding).

    Args:
        in_channels (int or None): Input channels. `None` (or `in_size=None`) defers
            the creation of the parameters to the first call.
        out_channels (int): Output channels.
        in_size (int or pair of ints or None): Input height and width.
        ksize (int or pair of ints): Filter size `(kh, kw)` (required).
        stride (int or pair of ints): Stride.
        nobias (bool): Leave out the bias `b` (then `b` is None).
        initialW: Initializer, array or scalar for `W` (default: LeCunNormal).
        initial_bias: Initializer, array or scalar for `b` (default: 0).

    Attributes:
        W (Parameter): Filters of shape
            `(out_channels, h_O, w_O, in_channels, kh, kw)`.
        b (Parameter): Bias of shape `(out_channels, h_O, w_O)`; like
            `W` it is created once the input size is known.

    The output size is `h_O = (h - kh) // s_Y + 1` (likewise `w_O`). Chainer 7 sizes
    the parameters as if the stride were 1, so there a stride above 1 fails on the
    first call; here the stride is taken into account.
    """

    def __init__(self, in_channels, out_channels, in_size=None, ksize=None, stride=1,
                 nobias=False, initialW=None, initial_bias=None, **kwargs):
        super().__init__()
        if kwargs:
            raise TypeError('LocalConvolution2D() got unexpected keyword argument(s): '
                            '{}'.format(', '.join(sorted(kwargs))))
        check_size('LocalConvolution2D', 'in_channels', in_channels, allow_none=True)
        check_size('LocalConvolution2D', 'out_channels', out_channels)
        if ksize is None:
            raise TypeError('LocalConvolution2D: ksize must be an int or a pair of ints, '
                            'got None')
        self.ksize = ksize
        self.stride = parameter_setup.pair(stride)
        self.nobias = nobias
        self.out_channels = out_channels
        # W and b get their shapes once in_channels and in_size are known
        parameter_setup.init_weight_and_bias(self, initialW, None, nobias, initial_bias, None)
        if in_channels is not None and in_size is not None:
            self._initialize_params(in_channels, parameter_setup.pair(in_size))

    def _initialize_params(self, in_channels, in_size):
        kh, kw = parameter_setup.pair(self.ksize)
        ih, iw = parameter_setup.pair(in_size)
        sy, sx = self.stride
        oh = conv.get_conv_outsize(ih, kh, sy, 0)
        ow = conv.get_conv_outsize(iw, kw, sx, 0)
        if oh <= 0 or ow <= 0:
            raise ValueError(
                'LocalConvolution2D: in_size {} is smaller than ksize {}'.format(
                    (ih, iw), (kh, kw)))
        self.W.initialize((self.out_channels, oh, ow, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize((self.out_channels, oh, ow))

    def forward(self, x):
        """Apply the layer to `x` of shape (n, in_channels, h, w)."""
        if self.W.array is None:
            self._initialize_params(x.shape[1], x.shape[2:])
        return _local_conv.local_convolution_2d(x, self.W, self.b, self.stride)
