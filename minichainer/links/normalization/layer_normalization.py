"""The layer normalization layer `LayerNormalization`."""
from minichainer import link
from minichainer.links.normalization import affine
from minichainer.functions.normalization import layer_normalization as _ln


class LayerNormalization(link.Link):
    """Normalize each example over its features, then scale by `gamma` and shift by
    `beta` (both of shape `(size,)`, initialized to 1 and 0).

    Args:
        size (int or None): Feature size; None infers it on the first call.
        eps (float): Added to the variance.
        initial_gamma, initial_beta: Initializers.
    """

    _initialize_params = affine.initialize_affine

    def __init__(self, size=None, eps=1e-6, initial_gamma=None, initial_beta=None):
        super().__init__()
        affine.setup_affine(self, initial_gamma, initial_beta, eps, size)

    def forward(self, x):
        """Apply layer normalization to `x` of shape (batch, size)."""
        if self.gamma.array is None:
            size = 1
            for n in x.shape[1:]:
                size *= n
            self._initialize_params(size)
        return _ln.layer_normalization(x, self.gamma, self.beta, self.eps)
