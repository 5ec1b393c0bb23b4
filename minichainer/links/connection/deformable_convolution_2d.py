"""Deformable 2-D convolution layers `DeformableConvolution2D` and its sampler link."""
from minichainer import initializers
from minichainer import link
from minichainer.links._check import check_size
from minichainer.links.connection import parameter_setup
from minichainer.links.connection.convolution_2d import Convolution2D

from minichainer.functions.connection import deformable_convolution_2d_sampler as _sampler


class DeformableConvolution2D(link.Chain):
    """Deformable 2-D convolution: a convolution predicts the sampling offsets, which a
    `DeformableConvolution2DSampler` then uses.

    Args:
        in_channels (int or None): Input channels (`None`: found on the first call).
        out_channels (int): Output channels.
        ksize (int or pair of ints): Filter size `(kh, kw)`.
        stride (int or pair of ints): Stride of both convolutions.
        pad (int or pair of ints): Padding of both convolutions.
        offset_nobias (bool): No bias in the offset convolution.
        offset_initialW: Initializer of the offset convolution's `W`
            (default: LeCunNormal).
        offset_initial_bias: Initializer of its `b` (default: 0).
        deform_nobias (bool): No bias in the deformable convolution.
        deform_initialW: Initializer of the deformable convolution's `W`
            (default: zeros).
        deform_initial_bias: Initializer of its `b` (default: 0).

    Attributes:
        offset_conv (Convolution2D): `in_channels` to
            `2 * kh * kw` channels, the offsets.
        deform_conv (DeformableConvolution2DSampler): the deformable convolution.
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0,
                 offset_nobias=False, offset_initialW=None, offset_initial_bias=None,
                 deform_nobias=False, deform_initialW=None, deform_initial_bias=None):
        super().__init__()
        kh, kw = parameter_setup.pair(ksize)
        with self.init_scope():
            self.offset_conv = Convolution2D(
                in_channels, 2 * kh * kw, ksize, stride, pad, offset_nobias,
                offset_initialW, offset_initial_bias)
            self.deform_conv = DeformableConvolution2DSampler(
                in_channels, out_channels, ksize, stride, pad, deform_nobias,
                deform_initialW, deform_initial_bias)

    def forward(self, x):
        """Apply the layer to `x` of shape (n, in_channels, h, w)."""
        return self.deform_conv(x, self.offset_conv(x))


class DeformableConvolution2DSampler(link.Link):
    """Deformable 2-D convolution with offsets given on each call.

    Holds `W` of shape `(out_channels, in_channels, kh, kw)` (default: zeros) and
    `b` of shape `(out_channels,)` (default: 0), both created once `in_channels`
    is known; `forward(x, offset)` applies
    [`deformable_convolution_2d_sampler`][minichainer.functions.connection.deformable_convolution_2d_sampler.deformable_convolution_2d_sampler].
    """

    def __init__(self, in_channels, out_channels, ksize, stride=1, pad=0, nobias=False,
                 initialW=None, initial_bias=None):
        super().__init__()
        check_size('DeformableConvolution2DSampler', 'in_channels', in_channels,
                   allow_none=True)
        check_size('DeformableConvolution2DSampler', 'out_channels', out_channels)
        self.ksize = ksize
        self.stride = parameter_setup.pair(stride)
        self.pad = parameter_setup.pair(pad)
        self.out_channels = out_channels
        self.initialW = initialW
        if initialW is None:
            initialW = initializers.Zero()
        # W and b get their shapes once in_channels is known
        parameter_setup.init_weight_and_bias(self, initialW, None, nobias, initial_bias, None)
        if in_channels is not None:
            self._initialize_params(in_channels)

    def _initialize_params(self, in_channels):
        kh, kw = parameter_setup.pair(self.ksize)
        self.W.initialize((self.out_channels, in_channels, kh, kw))
        if self.b is not None:
            self.b.initialize(self.out_channels)

    def forward(self, x, offset):
        """Convolve `x` (n, c, h, w) sampling at `offset` (n, 2 * kh * kw, h_O, w_O)."""
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return _sampler.deformable_convolution_2d_sampler(
            x, offset, self.W, self.b, self.stride, self.pad)
