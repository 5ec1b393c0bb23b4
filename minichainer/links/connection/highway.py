"""The highway layer `Highway`."""
from minichainer import link
from minichainer.links.connection import linear

from minichainer.functions.activation import relu as _relu
from minichainer.functions.activation import sigmoid as _sigmoid


class Highway(link.Chain):
    """Highway layer: `y = a(W_h x + b_h) * T + x * (1 - T)`, `T = sigmoid(W_t x + b_t)`.

    Args:
        in_out_size (int): Input and output dimension.
        nobias (bool): Leave out the biases.
        activate: Activation `a` (default `relu`).
        init_Wh, init_Wt, init_bh: Initializers of the plain and transform layers.
        init_bt: Initial transform bias (default -1).
    """

    def __init__(self, in_out_size, nobias=False, activate=_relu.relu, init_Wh=None,
                 init_Wt=None, init_bh=None, init_bt=-1):
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = linear.Linear(in_out_size, in_out_size, nobias=nobias,
                                       initialW=init_Wh, initial_bias=init_bh)
            self.transform = linear.Linear(in_out_size, in_out_size, nobias=nobias,
                                           initialW=init_Wt, initial_bias=init_bt)

    def forward(self, x):
        """Apply the highway layer to `x` of shape (batch, in_out_size)."""
        out_plain = self.activate(self.plain(x))
        out_transform = _sigmoid.sigmoid(self.transform(x))
        return out_plain * out_transform + x * (1 - out_transform)
