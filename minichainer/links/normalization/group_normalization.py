"""The group normalization layer `GroupNormalization`."""
import numpy

import minichainer
from minichainer import link
from minichainer.links.normalization import affine
from minichainer.functions.array.reshape import reshape
from minichainer.functions.normalization import group_normalization as _gn


class GroupNormalization(link.Link):
    """Normalize over groups of channels, then scale by `gamma` and shift by `beta`
    (per channel, initialized to 1 and 0).

    Args:
        groups (int): Number of channel groups.
        size (int or None): Number of channels; None infers it on the first call.
        eps (float): Added to the variance.
        initial_gamma, initial_beta: Initializers.

    Raises:
        ValueError: (on call) the input has fewer than 2 dimensions.
    """

    _initialize_params = affine.initialize_affine

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None, initial_beta=None):
        super().__init__()
        self.groups = groups
        affine.setup_affine(self, initial_gamma, initial_beta, eps, size,
                            minichainer.get_dtype(None, map_mixed16=numpy.float32))

    def forward(self, x):
        """Apply group normalization to `x` of shape (batch, channels, ...)."""
        if self.gamma.array is None:
            if x.ndim < 2:
                raise ValueError(
                    'GroupNormalization: the input must have at least 2 dimensions '
                    '(batch, channels, ...), got shape {}'.format(x.shape))
            self._initialize_params(x.shape[1])
        if x.ndim == 2:
            # Chainer accepts (batch, channels) inputs; the function here needs a
            # trailing axis, so add (and then drop) a length-1 one.
            y = _gn.group_normalization(reshape(x, x.shape + (1,)), self.groups, self.gamma,
                                        self.beta, self.eps)
            return reshape(y, x.shape)
        return _gn.group_normalization(x, self.groups, self.gamma, self.beta, self.eps)
