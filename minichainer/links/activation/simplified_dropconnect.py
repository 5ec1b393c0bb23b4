"""The fully-connected layer with simplified DropConnect: `SimplifiedDropconnect`."""
import math

from minichainer import initializers
from minichainer import link
from minichainer.links.connection import parameter_setup
from minichainer import variable

from minichainer.functions.noise import simplified_dropconnect as _sdc


class SimplifiedDropconnect(link.Link):
    """Linear layer whose weights are randomly dropped with probability `ratio`.

    Args:
        in_size (int or None): Input dimension (None: inferred on the first call).
        out_size (int): Output dimension.
        ratio (float): Drop ratio.
        nobias (bool): Leave out the bias.
        initialW: Weight initializer (default `HeNormal(1 / sqrt(2))`).
        initial_bias: Bias initializer (default 0).
    """

    def __init__(self, in_size, out_size, ratio=.5, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        self.out_size = out_size
        self.ratio = ratio
        if initialW is None:
            initialW = initializers.HeNormal(1. / math.sqrt(2))
        parameter_setup.init_weight_and_bias(self, initialW, in_size, nobias, initial_bias,
                                             out_size)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    def forward(self, x, train=True, mask=None, use_batchwise_mask=True):
        """Apply the layer; `train=False` disables dropping, `mask` fixes the mask."""
        if self.W.array is None:
            self._initialize_params(x.size // len(x))
        if mask is not None and 'mask' not in self.__dict__:
            self.add_persistent('mask', mask)
        return _sdc.simplified_dropconnect(x, self.W, self.b, self.ratio, train, mask,
                                           use_batchwise_mask)
