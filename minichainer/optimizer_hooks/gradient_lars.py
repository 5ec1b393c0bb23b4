"""GradientLARS: layer-wise adaptive rate scaling of the gradients."""
from minichainer import backend
from minichainer.optimizer_hooks import _checks as _util


class GradientLARS:
    """Optimizer/UpdateRule hook for layer-wise adaptive rate scaling (LARS).

    For each parameter `w` with gradient `g`: when `|w| > threshold` the gradient
    becomes `(g + weight_decay * w) * |w| / (eps + |g| + weight_decay * |w|)`, else
    `g + weight_decay * w`. See
    [Large Batch Training of Convolutional Networks](https://arxiv.org/abs/1708.03888).

    Args:
        threshold (float): Weight norm above which the gradient is rescaled.
        weight_decay (float): Coefficient of the weight decay.
        eps (float): Small value for numerical stability.

    Attributes:
        timing (str): `'pre'` (before the update) or `'post'`.
    """

    name = 'GradientLARS'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, threshold=1e-2, weight_decay=0.0, eps=1e-9):
        _util.check_range('GradientLARS', 'threshold', threshold, _util.NON_NEGATIVE)
        _util.check_range('GradientLARS', 'weight_decay', weight_decay, _util.NON_NEGATIVE)
        _util.check_range('GradientLARS', 'eps', eps, _util.NON_NEGATIVE)
        self.threshold = threshold
        self.weight_decay = weight_decay
        self.eps = eps

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        xp = backend.get_array_module(p)
        p_norm = xp.linalg.norm(p)
        g_norm = xp.linalg.norm(g)
        local_rate = p_norm / (self.eps + g_norm + self.weight_decay * p_norm)
        rate = xp.where(p_norm > self.threshold, local_rate, 1.0)
        g += self.weight_decay * p
        g *= rate
