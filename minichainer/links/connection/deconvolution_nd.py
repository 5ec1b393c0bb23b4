"""N-dimensional transposed convolution layers: `DeconvolutionND`, `Deconvolution1D`,
`Deconvolution3D`."""
from minichainer import link
from minichainer.links.connection import parameter_setup
from minichainer import variable

from minichainer.functions.connection import deconvolution_nd as _deconv_nd


class DeconvolutionND(link.Link):
    """N-dimensional deconvolution (transposed convolution) layer.

    `DeconvolutionND(ndim, in_channels, out_channels, ksize=None, stride=1, pad=0,
    nobias=False, outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1)`.
    `W` has shape `(in_channels, out_channels / groups) + ksize`.

    Raises:
        ValueError: a channel count is not divisible by `groups`.
    """

    def __init__(self, ndim, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, outsize=None, initialW=None, initial_bias=None, dilate=1,
                 groups=1):
        super().__init__()
        in_channels, out_channels = parameter_setup.setup_nd(
            self, ndim, in_channels, out_channels, ksize, stride, pad, dilate, groups)
        self.outsize = outsize
        parameter_setup.init_weight_and_bias(self, initialW, in_channels, nobias, initial_bias,
                                     out_channels)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, outsize=None, **kwargs):
        """Build the link starting from copies of `W` (shape
        `(in_channels, out_channels / groups) + ksize`) and `b`.

        Raises:
            ValueError: `b` does not have `out_channels` elements.
        """
        dilate, groups = parameter_setup.from_params_kwargs(cls, kwargs)
        W = variable.as_array(W)
        in_channels, out_per_group = W.shape[:2]
        ksize = W.shape[2:]
        out_channels = out_per_group * groups
        b = parameter_setup.bias_from_params(cls.__name__ + '.from_params', b, out_channels)
        args = (in_channels, out_channels, ksize, stride, pad, nobias, outsize, W, b, dilate,
                groups)
        return parameter_setup.construct_nd(cls, DeconvolutionND, ksize, args)

    def _initialize_params(self, in_channels):
        parameter_setup.check_channel_groups(
            type(self).__name__, in_channels, self.out_channels, self.groups)
        self.W.initialize((in_channels, int(self.out_channels / self.groups)) + self.ksize)

    def forward(self, x):
        """Apply the transposed convolution to `x` of shape (n, c, d_1, ..., d_N)."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return _deconv_nd.deconvolution_nd(x, self.W, self.b, self.stride, self.pad,
                                           outsize=self.outsize, dilate=self.dilate,
                                           groups=self.groups)


class Deconvolution1D(DeconvolutionND):
    """1-D deconvolution layer (`DeconvolutionND` with `ndim=1`)."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(1, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)


class Deconvolution3D(DeconvolutionND):
    """3-D deconvolution layer (`DeconvolutionND` with `ndim=3`)."""

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 outsize=None, initialW=None, initial_bias=None, dilate=1, groups=1):
        super().__init__(3, in_channels, out_channels, ksize, stride, pad, nobias, outsize,
                         initialW, initial_bias, dilate, groups)
