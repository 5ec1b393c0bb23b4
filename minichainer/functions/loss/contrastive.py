"""Contrastive loss."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.cast import cast
from minichainer.functions.array.repeat import repeat
from minichainer.functions.math.maximum import maximum
from minichainer.functions.math.sqrt import sqrt
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


class Contrastive(function_node.FunctionNode):
    """FunctionNode of [`contrastive`][minichainer.functions.loss.contrastive.contrastive]
    (inputs `(x0, x1, y)`)."""

    def __init__(self, margin, reduce='mean'):
        self.margin = checks.positive_margin(margin)
        self.reduce = checks.reduce_option(reduce, ('mean', 'no'))

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x0', 'x1', 'y'))
        x0_type, x1_type, y_type = in_types
        type_check.expect(
            x0_type.dtype.kind == 'f',
            x0_type.dtype == x1_type.dtype,
            y_type.dtype.kind == 'i',
            x0_type.shape == x1_type.shape,
            x1_type.shape[0] == y_type.shape[0],
            x1_type.shape[0] > 0,
            x0_type.ndim == 2,
            x1_type.ndim == 2,
            y_type.ndim == 1,
        )

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self.retain_inputs((0, 1, 2))
        x0, x1, y = inputs
        diff = x0 - x1
        dist_sq = xp.sum(diff ** 2, axis=1)
        dist = xp.sqrt(dist_sq)
        mdist = self.margin - dist
        dist = xp.maximum(mdist, 0)
        loss = (y * dist_sq + (1 - y) * dist * dist) * .5
        if self.reduce == 'mean':
            loss = xp.sum(loss) / x0.shape[0]
        return xp.asarray(loss, dtype=x0.dtype),

    def backward(self, indexes, grad_outputs):
        x0, x1, y = self.get_retained_inputs()
        gy, = grad_outputs
        xp = backend.get_array_module(gy.array)
        diff = x0 - x1
        dist_sq = _sum(diff ** 2, axis=1)
        dist = sqrt(dist_sq)
        mdist = self.margin - dist
        y = y.array
        x_dim = x0.shape[1]
        y = xp.repeat(y[:, None], x_dim, axis=1)
        if self.reduce == 'mean':
            alpha = gy / y.shape[0]
        else:
            alpha = gy[:, None]
        alpha = broadcast_to(alpha, y.shape)
        dist = repeat(dist[:, None], x_dim, axis=1)
        eps = 5e-3 if dist.dtype == 'float16' else 1e-7
        dist = maximum(dist, xp.full(dist.shape, eps, dtype=dist.dtype))
        gx0 = alpha * y.astype(alpha.dtype) * diff
        d = repeat(mdist[:, None], x_dim, axis=1)
        mdist = maximum(d, xp.zeros(shape=d.shape, dtype=d.dtype))
        gx0 += alpha * (1 - y).astype(alpha.dtype) * mdist * -(diff / dist)
        if gx0.dtype != x0.dtype:
            gx0 = cast(gx0, x0.dtype)
        return gx0, -gx0, None


def contrastive(x0, x1, y, margin=1, reduce='mean'):
    """Contrastive loss `0.5 (y d^2 + (1 - y) max(margin - d, 0)^2)`, d = ||x0 - x1||.

    Args:
        x0, x1 (Variable or ndarray): (N, K) pairs.
        y (Variable or ndarray): (N,) int labels, 1 for similar pairs, 0 otherwise.
        margin (float): positive margin.
        reduce (str): `'mean'` or `'no'`.
    """
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]
