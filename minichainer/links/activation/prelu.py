"""The parametric ReLU layer `PReLU`."""
from minichainer import link
from minichainer import variable

from minichainer.functions.activation import prelu as _prelu


class PReLU(link.Link):
    """Parametric ReLU with a learnable slope `W` of shape `shape` (initialized to
    `init`, 0.25 by default) aligned with the axes after the batch axis."""

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = variable.Parameter(init, shape)

    def forward(self, x):
        """`max(x, 0) + W * min(x, 0)`."""
        return _prelu.prelu(x, self.W)
