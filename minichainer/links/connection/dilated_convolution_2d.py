"""The dilated 2-D convolution layer `DilatedConvolution2D`."""
from minichainer import link
from minichainer.links.connection import parameter_setup

from minichainer.functions.connection import dilated_convolution_2d as _dilconv


class DilatedConvolution2D(link.Link):
    """2-D convolution with dilated filters.

    `DilatedConvolution2D(in_channels, out_channels, ksize=None, stride=1, pad=0,
    dilate=1, nobias=False, initialW=None, initial_bias=None)`; with two positional
    arguments they are `(out_channels, ksize)`.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0, dilate=1,
                 nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        parameter_setup.check_args('DilatedConvolution2D', 2, ksize, stride, pad, dilate)
        self.ksize = ksize
        self.stride = parameter_setup.pair(stride)
        self.pad = parameter_setup.pair(pad)
        self.dilate = parameter_setup.pair(dilate)
        self.out_channels = out_channels
        parameter_setup.init_weight_and_bias(self, initialW, in_channels, nobias, initial_bias,
                                     out_channels)

    def _initialize_params(self, in_channels):
        kh, kw = parameter_setup.pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))

    def forward(self, x):
        """Apply the dilated convolution to `x` of shape (n, c, h, w)."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return _dilconv.dilated_convolution_2d(x, self.W, self.b, self.stride, self.pad,
                                               self.dilate)
