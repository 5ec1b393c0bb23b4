"""The 2-D convolution layer `Convolution2D`."""
from minichainer import link
from minichainer.links.connection import parameter_setup
from minichainer import get_compute_mode as _get_compute_mode
from minichainer import memory_layouts as _memory_layouts
from minichainer import variable

from minichainer.functions.connection import convolution_2d as _conv


class Convolution2D(link.Link):
    """2-D convolution layer.

    `Convolution2D(in_channels, out_channels, ksize=None, stride=1, pad=0, nobias=False,
    initialW=None, initial_bias=None, *, dilate=1, groups=1)`; with two positional
    arguments they are `(out_channels, ksize)` and `in_channels` is inferred on the
    first call. `W` has shape `(out_channels, in_channels / groups, kh, kw)`
    (default LeCunNormal), `b` shape `(out_channels,)` (default 0).

    Raises:
        ValueError: a channel count is not divisible by `groups`.
    """

    def __init__(self, in_channels, out_channels, ksize=None, stride=1, pad=0,
                 nobias=False, initialW=None, initial_bias=None, **kwargs):
        super().__init__()
        in_channels, out_channels, groups = parameter_setup.setup_2d(
            self, 'Convolution2D', in_channels, out_channels, ksize, stride, pad, kwargs)
        self.out_channels = out_channels
        self.groups = int(groups)
        self.nobias = nobias
        parameter_setup.init_weight_and_bias(self, initialW, in_channels, nobias, initial_bias,
                                     out_channels)
        # As Chainer: under ``using_config('compute_mode', 'cudnn_fast')`` the weight is
        # kept channel-last (memory_layouts); that mode needs cuDNN, so forward raises.
        self.cudnn_fast = _get_compute_mode() == 'cudnn_fast'
        self.x_layout = _memory_layouts.CUDNN_CHANNEL_LAST_X if self.cudnn_fast else None
        if self.cudnn_fast:
            variable.set_array_layout(self.W, _memory_layouts.CUDNN_CHANNEL_LAST_W)
            if self.W.array is not None:
                self.W.array = _memory_layouts.transpose_array(
                    self.W.array, None, self.W.layout)

    @property
    def printable_specs(self):
        for name in ('in_channels', 'out_channels', 'ksize', 'stride', 'pad', 'nobias',
                     'dilate', 'groups'):
            yield name, getattr(self, name)

    @classmethod
    def from_params(cls, W, b=None, stride=1, pad=0, nobias=False, **kwargs):
        """Build a Convolution2D starting from copies of `W` (and `b`).

        `W` has shape `(out_channels, in_channels / groups, kh, kw)`; `dilate` and
        `groups` may be given as keywords.

        Raises:
            ValueError: `b` does not have `out_channels` elements.
        """
        dilate, groups = parameter_setup.parse_conv_kwargs(kwargs, 'Convolution2D.from_params')
        W = variable.as_array(W)
        out_channels, in_per_group, kh, kw = W.shape
        b = parameter_setup.bias_from_params('Convolution2D.from_params', b, out_channels)
        return cls(in_per_group * groups, out_channels, (kh, kw), stride, pad, nobias,
                   initialW=W, initial_bias=b, dilate=dilate, groups=groups)

    def _initialize_params(self, in_channels):
        kh, kw = parameter_setup.pair(self.ksize)
        parameter_setup.check_channel_groups('Convolution2D', in_channels, self.out_channels,
                                             self.groups)
        self.W.initialize((self.out_channels, int(in_channels / self.groups), kh, kw))

    def forward(self, x):
        """Convolve `x` of shape (n, c, h, w)."""
        if self.cudnn_fast:
            raise RuntimeError("Convolution2D: the 'cudnn_fast' compute mode needs cuDNN; "
                               "it can't be used in the CPU backend")
        if self.W.array is None:
            self._initialize_params(x.shape[1])
        return _conv.convolution_2d(x, self.W, self.b, self.stride, self.pad,
                                    dilate=self.dilate, groups=self.groups)
