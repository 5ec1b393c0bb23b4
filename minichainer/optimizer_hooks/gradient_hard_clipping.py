"""GradientHardClipping: clip every gradient element into `[lower, upper]`."""
from minichainer import backend
from minichainer.optimizer_hooks import _checks as _util


class GradientHardClipping:
    """Optimizer/UpdateRule hook clipping each gradient element into a range, in place.

    Args:
        lower_bound (float): Lower bound of the gradient values.
        upper_bound (float): Upper bound of the gradient values.

    Attributes:
        lower_bound (float): Lower bound of the gradient values.
        upper_bound (float): Upper bound of the gradient values.
        timing (str): `'pre'` (before the update) or `'post'`.
    """

    name = 'GradientHardClipping'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, lower_bound, upper_bound):
        lower = _util.real_value(lower_bound)
        upper = _util.real_value(upper_bound)
        if lower is not None and upper is not None and not lower <= upper:
            raise ValueError(
                'GradientHardClipping: lower_bound must not exceed upper_bound, got '
                'lower_bound={!r} and upper_bound={!r}'.format(lower_bound, upper_bound))
        self.lower_bound = lower_bound
        self.upper_bound = upper_bound

    def __call__(self, rule, param):
        grad = param.grad
        if grad is None:
            return
        xp = backend.get_array_module(grad)
        xp.clip(grad, self.lower_bound, self.upper_bound, out=grad)
