"""`WeightStandardization`: standardize a link's weight per output channel
(Qiao et al., https://arxiv.org/abs/1903.10520)."""
from minichainer import link_hook
import minichainer.functions as F


def _standardize(W, eps):
    # (W - mean) / sqrt(var + eps), statistics over all axes but the first.
    shape = W.shape
    W2 = F.reshape(W, (shape[0], -1))
    mean = F.broadcast_to(F.mean(W2, axis=1, keepdims=True), W2.shape)
    centered = W2 - mean
    var = F.broadcast_to(F.mean(centered * centered, axis=1, keepdims=True), W2.shape)
    return F.reshape(centered / F.sqrt(var + eps), shape)


class WeightStandardization(link_hook.LinkHook):
    """Link hook replacing `W` by its standardized version during each forward.

    Args:
        eps (float): Added to the variance.
        weight_name (str): Name of the weight.
        name (str or None): Hook name.

    Raises:
        ValueError: the link has no such weight, or it cannot be initialized lazily.
    """

    name = 'WeightStandardization'

    def __init__(self, *, eps=1e-5, weight_name='W', name=None):
        self.eps = eps
        self.weight_name = weight_name
        self._initialized = False
        if name is not None:
            self.name = name

    def __enter__(self):
        raise NotImplementedError(
            'WeightStandardization is not supposed to be used as a context manager; '
            'register it with link.add_hook')

    def __exit__(self, *args):
        raise NotImplementedError

    def added(self, link):
        if not hasattr(link, self.weight_name):
            raise ValueError('WeightStandardization: the link has no weight {!r}'.format(
                self.weight_name))
        if getattr(link, self.weight_name).array is not None:
            self._initialized = True

    def forward_preprocess(self, cb_args):
        link = cb_args.link
        if not self._initialized:
            if getattr(link, self.weight_name).array is None:
                if not cb_args.args:
                    raise ValueError('WeightStandardization: no input to infer the '
                                     'weight shape from')
                link._initialize_params(cb_args.args[0].shape[1])
            self._initialized = True
        self.original_weight = getattr(link, self.weight_name)
        setattr(link, self.weight_name, _standardize(self.original_weight, self.eps))

    def forward_postprocess(self, cb_args):
        setattr(cb_args.link, self.weight_name, self.original_weight)
