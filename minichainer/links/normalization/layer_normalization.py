"""The layer normalization layer `LayerNormalization`."""
from minichainer import link
from minichainer import variable
from minichainer.functions.normalization import layer_normalization as _ln


class LayerNormalization(link.Link):
    """Normalize each example over its features, then scale by `gamma` and shift by
    `beta` (both of shape `(size,)`, initialized to 1 and 0).

    Args:
        size (int or None): Feature size; None infers it on the first call.
        eps (float): Added to the variance.
        initial_gamma, initial_beta: Initializers.
    """

    def __init__(self, size=None, eps=1e-6, initial_gamma=None, initial_beta=None):
        super().__init__()
        if initial_gamma is None:
            initial_gamma = 1
        if initial_beta is None:
            initial_beta = 0
        with self.init_scope():
            self.gamma = variable.Parameter(initial_gamma)
            self.beta = variable.Parameter(initial_beta)
            self.eps = eps
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def forward(self, x):
        """Apply layer normalization to `x` of shape (batch, size)."""
        if self.gamma.array is None:
            size = 1
            for n in x.shape[1:]:
                size *= n
            self._initialize_params(size)
        return _ln.layer_normalization(x, self.gamma, self.beta, self.eps)
