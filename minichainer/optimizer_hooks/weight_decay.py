"""WeightDecay: L2 regularization added to the gradient."""
from minichainer import backend


def _borrow_scratch(rule, p):
    """A scratch array of the update rule that fits ``p`` (free while hooks run)."""
    views = getattr(rule, '_scratch', None)
    if views is None:
        get = getattr(rule, '_get_scratch', None)
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


class WeightDecay:
    """Optimizer/UpdateRule hook adding ``rate * param`` to each gradient.

    Deliberate difference from Chainer: the product is computed in the update rule's
    scratch buffer instead of a fresh temporary (same result).

    Args:
        rate (float): Coefficient of the weight decay.

    Attributes:
        rate (float): Coefficient of the weight decay.
        timing (str): ``'pre'`` (before the update) or ``'post'``.
    """

    name = 'WeightDecay'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate):
        self.rate = rate

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        scratch = _borrow_scratch(rule, p)
        if scratch is None:
            g += self.rate * p
        else:
            backend.get_array_module(p).multiply(p, self.rate, out=scratch)
            g += scratch
