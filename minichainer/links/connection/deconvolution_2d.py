"""The 2-D transposed convolution layer `Deconvolution2D`."""
from minichainer import link
from minichainer.links.connection import parameter_setup
from minichainer import variable

from minichainer.functions.connection import deconvolution_2d as _deconv


class Deconvolution2D(link.Link):
    """2-D deconvolution (transposed convolution) layer.

    `Deconvolution2D(in_channels, out_channels, ksize=None, stride=1, pad=0,
    nobias=False, outsize=None, initialW=None, initial_bias=None, *, dilate=1,
    groups=1)`; with two positional arguments they are `(out_channels, ksize)`.
    `W` has shape `(in_channels, out_channels / groups, kh, kw)`.

    Raises:
        ValueError: a channel count is not divisible by `groups` or `initial_bias`
            has the wrong shape.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None, **kwargs):
        super().__init__()
        in_channels, out_channels, groups = parameter_setup.setup_2d(
            self, 'Deconvolution2D', in_channels, out_channels, ksize, stride, pad, kwargs)
        self.outsize = (None, None) if outsize is None else outsize
        self.out_channels = out_channels
        self.groups = int(groups)
        self.nobias = nobias
        parameter_setup.init_weight_and_bias(self, initialW, in_channels, nobias,
                                             initial_bias, out_channels,
                                             bias_shape_owner='Deconvolution2D')

    @property
    def printable_specs(self):
        for name in ('in_channels', 'out_channels', 'ksize', 'stride', 'pad', 'nobias',
                     'outsize', 'dilate', 'groups'):
            yield name, getattr(self, name)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, outsize=None, **kwargs):
        """Build a Deconvolution2D starting from copies of `W` (and `b`).

        `W` has shape `(in_channels, out_channels / groups, kh, kw)`.

        Raises:
            ValueError: `b` does not have `out_channels` elements.
        """
        dilate, groups = parameter_setup.parse_conv_kwargs(kwargs, 'Deconvolution2D.from_params')
        W = variable.as_array(W)
        in_channels, out_per_group, kh, kw = W.shape
        out_channels = out_per_group * groups
        b = parameter_setup.bias_from_params('Deconvolution2D.from_params', b, out_channels)
        return cls(in_channels, out_channels, (kh, kw), stride, pad, nobias, outsize,
                   initialW=W, initial_bias=b, dilate=dilate, groups=groups)

    def _initialize_params(self, in_channels):
        kh, kw = parameter_setup.pair(self.ksize)
        parameter_setup.check_groups('Deconvolution2D', 'in_channels', in_channels, self.groups)
        parameter_setup.check_groups('Deconvolution2D', 'out_channels', self.out_channels,
                                     self.groups)
        self.W.initialize((in_channels, int(self.out_channels / self.groups), kh, kw))

    def forward(self, x):
        """Apply the transposed convolution to `x` of shape (n, c, h, w)."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        outsize = self.outsize
        if outsize is not None and tuple(outsize) == (None, None):
            outsize = None
        return _deconv.deconvolution_2d(x, self.W, self.b, self.stride, self.pad, outsize,
                                        dilate=self.dilate, groups=self.groups)
