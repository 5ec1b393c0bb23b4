"""``MLPConvolution2D``: a convolution followed by 1x1 convolutions (Network in Network)."""
from minichainer.functions.activation.relu import relu
from minichainer import link
from minichainer.links.connection import convolution_2d


class MLPConvolution2D(link.ChainList):
    """A ``ksize`` convolution followed by 1x1 convolutions with ``activation`` between
    and after them.

    Args:
        in_channels (int or None): Input channels (None: inferred).
        out_channels (tuple of ints): Output channels of each convolution.
        ksize, stride, pad: Of the first convolution.
        activation: Activation function (default ``relu``).
        conv_init, bias_init: Initializers of all convolutions.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 activation=relu, conv_init=None, bias_init=None):
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        if not out_channels:
            raise ValueError('MLPConvolution2D: out_channels must not be empty')
        convs = [convolution_2d.Convolution2D(
            in_channels, out_channels[0], ksize, stride, pad, initialW=conv_init,
            initial_bias=bias_init)]
        for n_in, n_out in zip(out_channels, out_channels[1:]):
            convs.append(convolution_2d.Convolution2D(
                n_in, n_out, 1, initialW=conv_init, initial_bias=bias_init))
        super().__init__(*convs)
        self.activation = activation

    def forward(self, x):
        """Apply the convolutions with the activation after each one."""
        f = self.activation
        for conv in self._children:
            x = f(conv(x))
        return x
