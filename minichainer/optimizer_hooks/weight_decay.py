"""WeightDecay: L2 regularization added to the gradient."""
from minichainer import backend
from minichainer import variable
from minichainer.optimizer_hooks import _checks as _util


def _borrow_scratch(rule, p):
    """A scratch array of the update rule that fits `p` (free while hooks run)."""
    views = getattr(rule, '_scratch', None)
    if views is None:
        get = getattr(rule, 'get_scratch', None)
        if get is None:
            return None
        return get(_ArrayHolder(p))
    scratch = views[0]
    if scratch.shape != p.shape or scratch.dtype != p.dtype:
        return None
    return scratch


class _ArrayHolder:
    __slots__ = ('array',)

    def __init__(self, array):
        self.array = array


class WeightDecay(_util.RateHook):
    """Optimizer/UpdateRule hook adding `rate * param` to each gradient.

    With loss scaling the rate is multiplied by the parameter's loss scale, because the
    gradient is divided by it only later, in the update rule (as Chainer 7). Deliberate
    difference from Chainer: the product is computed in the update rule's scratch buffer
    instead of a fresh temporary (same result).

    Args:
        rate (float): Coefficient of the weight decay.

    Attributes:
        rate (float): Coefficient of the weight decay.
        timing (str): `'pre'` (before the update) or `'post'`.
    """

    name = 'WeightDecay'

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        rate = self.rate
        loss_scale = variable.grad_loss_scale(param)
        if loss_scale is not None:
            # the gradient is still scaled; the update rule divides it afterwards
            rate *= loss_scale
        scratch = _borrow_scratch(rule, p)
        if scratch is None:
            g += rate * p
        else:
            backend.get_array_module(p).multiply(p, rate, out=scratch)
            g += scratch
