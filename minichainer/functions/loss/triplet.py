"""Triplet loss."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.util import checks


class Triplet(function_node.FunctionNode):
    """FunctionNode of [`triplet`][minichainer.functions.loss.triplet.triplet]."""

    def __init__(self, margin, reduce='mean'):
        self.margin = checks.positive_margin(margin)
        self.reduce = checks.reduce_option(reduce, ('mean', 'no'))

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('anchor', 'positive', 'negative'))
        type_check.expect(
            in_types[0].dtype.kind == 'f',
            in_types[0].dtype == in_types[1].dtype,
            in_types[0].dtype == in_types[2].dtype,
            in_types[0].shape == in_types[1].shape,
            in_types[0].shape == in_types[2].shape,
            in_types[0].shape[0] > 0,
        )

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        anchor, positive, negative = inputs
        dist = xp.sum((anchor - positive) ** 2 - (anchor - negative) ** 2,
                      axis=1) + self.margin
        self.dist_hinge = xp.maximum(dist, 0)
        if self.reduce == 'mean':
            loss = xp.sum(self.dist_hinge) / anchor.shape[0]
        else:
            loss = self.dist_hinge
        self.retain_inputs((0, 1, 2))
        return xp.asarray(loss, dtype=anchor.dtype),

    def backward(self, indexes, grad_outputs):
        anchor, positive, negative = self.get_retained_inputs()
        N = anchor.shape[0]
        x_dim = anchor.shape[1]
        xp = backend.get_array_module(anchor.array)
        tmp = xp.repeat(self.dist_hinge[:, None], x_dim, axis=1)
        mask = xp.asarray(tmp > 0, dtype=anchor.dtype)
        gy, = grad_outputs
        if self.reduce == 'mean':
            g = gy / N
        else:
            g = gy[:, None]
        tmp = 2 * broadcast_to(g, mask.shape) * mask
        ret = []
        if 0 in indexes:
            ret.append(tmp * (negative - positive))
        if 1 in indexes:
            ret.append(tmp * (positive - anchor))
        if 2 in indexes:
            ret.append(tmp * (anchor - negative))
        return ret


def triplet(anchor, positive, negative, margin=0.2, reduce='mean'):
    """Triplet loss `max(||a - p||^2 - ||a - n||^2 + margin, 0)` (mean over the batch)."""
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
