"""The Swish activation with a learnable `beta`: `Swish`."""
from minichainer import initializers
from minichainer import link
from minichainer import variable

from minichainer.functions.activation import swish as _swish


class Swish(link.Link):
    """`y = x * sigmoid(beta * x)` with a learnable `beta`.

    Args:
        beta_shape (tuple or None): Shape of `beta`; None infers `x.shape[1:]` on the
            first call.
        beta_init (float): Initial value of `beta`.
    """

    def __init__(self, beta_shape, beta_init=1.0):
        super().__init__()
        with self.init_scope():
            if beta_shape is not None:
                self.beta = variable.Parameter(beta_init, beta_shape)
            else:
                self.beta = variable.Parameter(initializers.Constant(beta_init))

    def forward(self, x):
        """Apply Swish to `x`."""
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return _swish.swish(x, self.beta)
