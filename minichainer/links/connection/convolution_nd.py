"""N-dimensional convolution layers: `ConvolutionND`, `Convolution1D`, `Convolution3D`."""
from minichainer import link
from minichainer.links.connection import parameter_setup
from minichainer import variable

from minichainer.functions.connection import convolution_nd as _conv_nd


def _as_tuple(x, n):
    if hasattr(x, '__getitem__'):
        if len(x) != n:
            raise ValueError('expected a tuple of length {}, got {!r}'.format(n, x))
        return tuple(x)
    return (x,) * n


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
        if ksize is None:
            out_channels, ksize, in_channels = in_channels, out_channels, None
        parameter_setup.check_args(type(self).__name__, ndim, ksize, stride, pad, dilate, groups)
        self.ndim = ndim
        self.out_channels = out_channels
        self.ksize = _as_tuple(ksize, ndim)
        self.stride = stride
        self.pad = pad
        self.cover_all = cover_all
        self.dilate = _as_tuple(dilate, ndim)
        self.groups = int(groups)
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
        if cls.__init__ is ConvolutionND.__init__:
            args = (len(ksize),) + args
        return cls(*args)

    def _initialize_params(self, in_channels):
        name = type(self).__name__
        parameter_setup.check_channel_groups(name, in_channels, self.out_channels, self.groups)
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
