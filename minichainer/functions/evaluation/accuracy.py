"""Classification accuracy (``chainer.functions.accuracy``)."""
from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class Accuracy(function_node.FunctionNode):
    """Fraction of samples whose arg-max over axis 1 equals the label (not differentiable)."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'f',
            t_type.dtype.kind == 'i',
        )
        t_ndim = type_check.eval(t_type.ndim)
        type_check.expect(
            x_type.ndim >= t_type.ndim,
            x_type.shape[0] == t_type.shape[0],
            x_type.shape[2: t_ndim + 1] == t_type.shape[1:],
        )
        for i in range(t_ndim + 1, type_check.eval(x_type.ndim)):
            type_check.expect(x_type.shape[i] == 1)

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y)
        pred = y.argmax(axis=1).reshape(t.shape)
        if self.ignore_label is not None:
            mask = t == self.ignore_label
            ignore_cnt = mask.sum()
            pred = xp.where(mask, self.ignore_label, pred)
            count = (pred == t).sum() - ignore_cnt
            total = t.size - ignore_cnt
            if total == 0:
                acc = xp.asarray(0.0, dtype=y.dtype)
            else:
                acc = xp.asarray(float(count) / total, dtype=y.dtype)
        elif y.dtype.kind == 'f' and y.dtype.itemsize >= 4 and t.size:
            # The same float division ``mean`` does (the count is exact in float32
            # below 2**24), without numpy's Python-level ``mean``.
            dtype = y.dtype.type
            acc = xp.asarray(dtype(xp.count_nonzero(pred == t)) / dtype(t.size))
        else:
            acc = xp.asarray((pred == t).mean(dtype=y.dtype))
        return acc,


def accuracy(y, t, ignore_label=None):
    """Accuracy of a classification: the mean of ``argmax(y, axis=1) == t``.

    Args:
        y (~minichainer.Variable or ndarray): Scores ``(N, C, ...)`` (float).
        t (~minichainer.Variable or ndarray): Integer labels ``(N, ...)``.
        ignore_label (int or None): Samples with this label are left out of both the
            numerator and the denominator; 0 is returned when every label is ignored.

    Returns:
        ~minichainer.Variable: 0-dim Variable of ``y``'s dtype.
    """
    acc, = Accuracy(ignore_label=ignore_label).apply((y, t))
    return acc
