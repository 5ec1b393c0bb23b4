"""The depthwise 2-D convolution layer `DepthwiseConvolution2D`."""
import math

from minichainer import initializers
from minichainer import link
from minichainer.links.connection import parameter_setup
from minichainer import variable

from minichainer.functions.connection import depthwise_convolution_2d as _dwconv


class DepthwiseConvolution2D(link.Link):
    """Depthwise convolution: each input channel gets `channel_multiplier` filters.

    `W` has shape `(channel_multiplier, in_channels, kh, kw)` (default
    `HeNormal(1 / sqrt(2))`), `b` has `channel_multiplier * in_channels` elements.
    `in_channels=None` defers the creation of W and b to the first call.
    """

    def __init__(self, in_channels, channel_multiplier, ksize, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        parameter_setup.check_args('DepthwiseConvolution2D', 2, ksize, stride, pad)
        self.ksize = ksize
        self.stride = parameter_setup.pair(stride)
        self.pad = parameter_setup.pair(pad)
        self.channel_multiplier = channel_multiplier
        self.nobias = nobias
        if initialW is None:
            initialW = initializers.HeNormal(1. / math.sqrt(2))
        with self.init_scope():
            self.W = variable.Parameter(initializers.get_initializer(initialW))
            if nobias:
                self.b = None
            else:
                if initial_bias is None:
                    initial_bias = initializers.Constant(0)
                self.b = variable.Parameter(initializers.get_initializer(initial_bias))
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = parameter_setup.pair(self.ksize)
        self.W.initialize((self.channel_multiplier, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(self.channel_multiplier * in_channels)

    def forward(self, x):
        """Apply the depthwise convolution to `x` of shape (n, c, h, w)."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return _dwconv.depthwise_convolution_2d(x, self.W, self.b, self.stride, self.pad)
