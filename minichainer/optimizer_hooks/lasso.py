"""Lasso: L1 regularization added to the gradient."""
from minichainer import backend
from minichainer.optimizer_hooks import _checks as _util


class Lasso(_util.RateHook):
    """Optimizer/UpdateRule hook adding `rate * sign(param)` to each gradient.

    Args:
        rate (float): Coefficient of the L1 term.

    Attributes:
        rate (float): Coefficient of the L1 term.
        timing (str): `'pre'` (before the update) or `'post'`.
    """

    name = 'Lasso'

    def __call__(self, rule, param):
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        xp = backend.get_array_module(p)
        sign = xp.sign(p)
        g += self.rate * sign
