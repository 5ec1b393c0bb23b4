"""N-dimensional convolution layers: `ConvolutionND`, `Convolution1D`, `Convolution3D`."""
from minichainer import link
from minichainer.links.connection import parameter_setup
from minichainer import variable

from minichainer.functions.connection import convolution_nd as _conv_nd


class ConvolutionND(link.Link):
    """N-dimensional convolution layer.

    `ConvolutionND(ndim, in_channels, out_channels, ksize=None, stride=1, pad=0,
    nobias=False, initialW=None, initial_bias=None, cover_all=False, dilate=1,
    groups=1)`; with `ksize` omitted the channel arguments are `(out_channels,
    ksize)` and `in_channels` is inferred. `W` has shape
    `(out_channels, in_channels / groups) + ksize`.

    Raises:
        ValueError: a channel count is not divisible by `groups`.
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None, cover_all=False, dilate=1,
                 groups=1):
        super().__init__()
        in_channels, out_channels = parameter_setup.setup_nd(
            self, ndim, in_channels, out_channels, ksize, stride, pad, dilate, groups)
        self.cover_all = cover_all
        parameter_setup.init_weight_and_bias(self, initialW, in_channels, nobias, initial_bias,
                                     out_channels)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, **kwargs):
        """Build the link starting from copies of `W` (shape
        `(out_channels, in_channels / groups) + ksize`) and `b`; `dilate` and
        `groups` may be given as keywords.

        Raises:
            ValueError: `b` does not have `out_channels` elements.
        """
        dilate, groups = parameter_setup.from_params_kwargs(cls, kwargs)
        W = variable.as_array(W)
        out_channels, in_per_group = W.shape[:2]
        ksize = W.shape[2:]
        b = parameter_setup.bias_from_params(cls.__name__ + '.from_params', b, out_channels)
        args = (in_per_group * groups, out_channels, ksize, stride, pad, nobias, W, b, False,
                dilate, groups)
        return parameter_setup.construct_nd(cls, ConvolutionND, ksize, args)

    def _initialize_params(self, in_channels):
        parameter_setup.check_channel_groups(
            type(self).__name__, in_channels, self.out_channels, self.groups)
        self.W.initialize((self.out_channels, int(in_channels / self.groups)) + self.ksize)

    def forward(self, x):
        """Convolve `x` of shape (n, c, d_1, ..., d_N)."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return _conv_nd.convolution_nd(x, self.W, self.b, self.stride, self.pad,
                                       cover_all=self.cover_all, dilate=self.dilate,
                                       groups=self.groups)


class Convolution1D(ConvolutionND):
    """1-D convolution layer (`ConvolutionND` with `ndim=1`)."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)


class Convolution3D(ConvolutionND):
    """3-D convolution layer (`ConvolutionND` with `ndim=3`)."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None, cover_all=False, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, initialW,
                         initial_bias, cover_all, dilate, groups)
