"""`MLPConvolution2D`: a convolution followed by 1x1 convolutions (Network in Network)."""
from minichainer.functions.activation.relu import relu
from minichainer import link
from minichainer.links.connection import convolution_2d


class MLPConvolution2D(link.ChainList):
    """A `ksize` convolution followed by 1x1 convolutions, with `activation` between
    them (not after the last one).

    Args:
        in_channels (int or None): Input channels (None: inferred).
        out_channels (tuple of ints): Output channels of each convolution.
        ksize, stride, pad: Of the first convolution.
        activation: Activation function (default `relu`).
        conv_init, bias_init: (keyword-only) initializers of all convolutions.

    Raises:
        TypeError: extra positional arguments (the removed `wscale`) or unknown keywords.
        ValueError: `out_channels` is empty, or the removed `wscale` keyword is given.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 activation=relu, *args, **kwargs):
        msg = ('MLPConvolution2D: wscale is not supported anymore; use the '
               'conv_init and bias_init arguments')
        if args:  # the v1 positional wscale
            raise TypeError(msg)
        if 'wscale' in kwargs:  # as Chainer (argument.check_unexpected_kwargs)
            raise ValueError(msg)
        conv_init = kwargs.pop('conv_init', None)
        bias_init = kwargs.pop('bias_init', None)
        if kwargs:
            raise TypeError('MLPConvolution2D() got unexpected keyword argument(s): '
                            '{}'.format(', '.join(sorted(kwargs))))
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
        """Apply the convolutions, with the activation after all but the last."""
        f = self.activation
        children = self._children
        for conv in children[:-1]:
            x = f(conv(x))
        return children[-1](x)
