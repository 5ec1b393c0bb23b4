"""Hinge loss for one-of-many classification."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.evaluation import label_checks
from minichainer.utils import type_check
from minichainer.functions.util import checks
from minichainer.functions.array.broadcast import broadcast_to


class Hinge(function_node.FunctionNode):
    """FunctionNode of [`hinge`][minichainer.functions.loss.hinge.hinge] (Chainer uses an
    old-style Function)."""

    def __init__(self, norm='L1', reduce='mean'):
        if norm in ('L1', 'L2'):
            self.norm = norm
        else:
            raise NotImplementedError("norm should be either 'L1' or 'L2'")
        self.reduce = checks.reduce_option(reduce, ('mean', 'no'))

    def check_type_forward(self, in_types):
        x_type, t_type = label_checks.float_scores_int_labels(in_types)
        type_check.expect(
            x_type.ndim == 2,
            t_type.ndim == 1,
            x_type.shape[0] == t_type.shape[0],
        )

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        x, t = inputs
        num = len(x)
        if t.size and checks.values_checked(xp) and (t.min() < 0 or t.max() >= x.shape[1]):
            bad = t[(t < 0) | (t >= x.shape[1])][0]
            raise ValueError('hinge: each label t must satisfy 0 <= t < {} (the number of '
                             'classes), got {}'.format(x.shape[1], int(bad)))
        rows = xp.arange(num)
        bottom_diff = x.copy()
        bottom_diff[rows, t] *= -1
        bottom_diff = xp.maximum(0, 1 + bottom_diff)
        if self.norm == 'L1':
            loss = bottom_diff
        else:
            loss = bottom_diff ** 2
        if self.reduce == 'mean':
            loss = loss.sum() / num
        # d loss / d x (before multiplying by the incoming gradient)
        sign_diff = bottom_diff.copy()
        sign_diff[rows, t] *= -1
        if self.norm == 'L1':
            self._dx = xp.sign(sign_diff)
        else:
            self._dx = 2 * sign_diff
        self._num = num
        return utils.force_array(loss, x.dtype),

    def backward(self, indexes, grad_outputs):
        gloss, = grad_outputs
        if self.reduce == 'mean':
            gloss = gloss / self._num
            gloss = broadcast_to(gloss, self._dx.shape)
        return gloss * self._dx.astype(gloss.dtype, copy=False), None


def hinge(x, t, norm='L1', reduce='mean'):
    """Hinge loss `[max(0, 1 - delta{t_n = k} x_nk)]^p` (delta is +1/-1), p by `norm`.

    Args:
        x (Variable or ndarray): (N, K) scores.
        t (Variable or ndarray): (N,) int labels in [0, K).
        norm (str): `'L1'` or `'L2'`.
        reduce (str): `'mean'` (sum / N, a scalar) or `'no'` (elementwise).
    """
    return Hinge(norm, reduce).apply((x, t))[0]
