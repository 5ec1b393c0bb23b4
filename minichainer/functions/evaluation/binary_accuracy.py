"""Binary classification accuracy (`chainer.functions.binary_accuracy`)."""
import copy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.evaluation import label_checks
from minichainer.utils import type_check


class BinaryAccuracy(function_node.FunctionNode):
    """Accuracy of `y >= 0` against 0/1 labels; label -1 is ignored (not differentiable).

    Chainer implements this as an old-style `Function`; here it is a FunctionNode that
    can also be called like one (`BinaryAccuracy()(y, t)`).
    """

    ignore_label = -1

    def check_type_forward(self, in_types):
        x_type, t_type = label_checks.float_scores_int_labels(in_types)
        type_check.expect(t_type.shape == x_type.shape)

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y)
        y = y.ravel()
        t = t.ravel()
        c = (y >= 0)
        count = xp.maximum(1, (t != self.ignore_label).sum())
        return xp.asarray((c == t).sum() / count, dtype=y.dtype),


    def __call__(self, *inputs):
        """Apply like an old-style Chainer Function (a fresh node per call once used)."""
        node = copy.copy(self) if self.inputs is not None else self
        return node.apply(inputs)[0]


def binary_accuracy(y, t):
    """Binary accuracy: the fraction of `(y >= 0) == t` among labels other than -1.

    Args:
        y (Variable or ndarray): Scores (float); `y >= 0` predicts 1.
        t (Variable or ndarray): Integer labels 0, 1 or -1 (ignored), same shape.

    Returns:
        Variable: 0-dim Variable of `y`'s dtype.
    """
    return BinaryAccuracy()(y, t)
