"""GradientClipping: rescale all gradients so that their global L2 norm <= threshold."""
import math

import numpy

from minichainer import backend
from minichainer.optimizer_hooks import _checks as _util


def _sum_sqnorm(arrays):
    """Sum of squared L2 norms of `arrays` as a Python float."""
    total = 0.0
    for x in arrays:
        x = x.ravel()
        total += float(x.dot(x))
    return total


class GradientClipping:
    """Optimizer hook scaling all gradients down to a global L2 norm of `threshold`.

    The norm is taken over the gradients of every initialized parameter of the target;
    when it exceeds `threshold` every gradient is multiplied by `threshold / norm`.

    Args:
        threshold (float): L2 norm threshold.

    Attributes:
        threshold (float): L2 norm threshold.
        timing (str): `'pre'` (before the update) or `'post'`.
    """

    name = 'GradientClipping'
    timing = 'pre'

    def __init__(self, threshold):
        _util.check_range('GradientClipping', 'threshold', threshold, _util.NON_NEGATIVE)
        self.threshold = threshold

    def __call__(self, opt):
        grads = [p.grad for p in opt.target.params(False) if p.grad is not None]
        if not grads:
            return
        if any(not isinstance(g, numpy.ndarray) for g in grads):
            self._clip_on_device(grads)
            return
        sqnorm = _sum_sqnorm(grads)
        norm = math.sqrt(sqnorm)
        if norm == 0:
            return
        # a Python float keeps the multiplication in the gradients' dtype
        rate = float(self.threshold) / norm
        if rate >= 1:
            return
        for grad in grads:
            grad *= rate

    def _clip_on_device(self, grads):
        # As Chainer on a GPU: the norm stays on the device and every gradient is
        # multiplied by min(threshold / norm, 1) there, so the step makes no host copy
        # (a zero norm gives rate inf, clipped to 1).
        xp = backend.get_array_module(grads[0])
        sqnorm = None
        for g in grads:
            flat = g.ravel()
            term = flat.dot(flat).astype(numpy.float64)
            sqnorm = term if sqnorm is None else sqnorm + term
        with numpy.errstate(divide='ignore'):
            rate = xp.minimum(float(self.threshold) / xp.sqrt(sqnorm), 1.0)
        rates = {}
        for g in grads:
            r = rates.get(g.dtype)
            if r is None:
                r = rates[g.dtype] = rate.astype(g.dtype)
            g *= r
