"""The GoogLeNet `Inception` module."""
from minichainer.functions.activation.relu import relu
from minichainer.functions.array.concat import concat
from minichainer.functions.pooling.max_pooling_2d import max_pooling_2d
from minichainer import link
from minichainer.links.connection import convolution_2d


class Inception(link.Chain):
    """Inception module: 1x1, 3x3 and 5x5 convolution paths (the latter two with 1x1
    projections first) and a 3x3 max-pooling path with a projection, concatenated along
    the channels and passed through ReLU. The spatial size is kept.

    Args:
        in_channels (int): Input channels.
        out1, proj3, out3, proj5, out5, proj_pool (int): Channel sizes of the paths.
        conv_init, bias_init: Initializers of all convolutions.
    """

    def __init__(self, in_channels, out1, proj3, out3, proj5, out5, proj_pool,
                 conv_init=None, bias_init=None):
        super().__init__()
        conv = convolution_2d.Convolution2D
        kw = dict(initialW=conv_init, initial_bias=bias_init)
        with self.init_scope():
            self.conv1 = conv(in_channels, out1, 1, **kw)
            self.proj3 = conv(in_channels, proj3, 1, **kw)
            self.conv3 = conv(proj3, out3, 3, pad=1, **kw)
            self.proj5 = conv(in_channels, proj5, 1, **kw)
            self.conv5 = conv(proj5, out5, 5, pad=2, **kw)
            self.projp = conv(in_channels, proj_pool, 1, **kw)

    def forward(self, x):
        """Output with `out1 + out3 + out5 + proj_pool` channels."""
        out1 = self.conv1(x)
        out3 = self.conv3(relu(self.proj3(x)))
        out5 = self.conv5(relu(self.proj5(x)))
        pool = self.projp(max_pooling_2d(x, 3, stride=1, pad=1))
        return relu(concat((out1, out3, out5, pool), axis=1))
