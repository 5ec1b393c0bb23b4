"""Per-class precision, recall, F-beta and support (`F.classification_summary`)."""
import copy

import numpy

import minichainer

from minichainer import backend
from minichainer import function_node
from minichainer.functions.evaluation import label_checks
from minichainer.utils import scatter


def _fbeta_score(precision, recall, beta):
    beta_square = beta * beta
    return ((1 + beta_square) * precision * recall
            / (beta_square * precision + recall)).astype(precision.dtype, copy=False)


class ClassificationSummary(function_node.FunctionNode):
    """Computes `(precision, recall, fbeta, support)` per class (not differentiable).

    Chainer implements this as an old-style `Function`; here it is a FunctionNode that
    can also be called like one (returns the tuple of 4 Variables).
    """

    def __init__(self, label_num, beta, ignore_label):
        self.label_num = label_num
        self.beta = beta
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        label_checks.class_scores_and_labels(in_types)

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y)
        t = t.astype(xp.int32, copy=False)
        if self.label_num is None:
            # the output size depends on the labels: one scalar read from a GPU, as in
            # Chainer (pass label_num to avoid it)
            label_num = int(xp.amax(t)) + 1
        else:
            label_num = self.label_num
            if minichainer.is_debug():
                assert (t < label_num).all()
        mask = (t == self.ignore_label).ravel()
        pred = xp.where(mask, label_num, y.argmax(axis=1).ravel())
        true = xp.where(mask, label_num, t.ravel())
        support = scatter.bincount(true, label_num + 1)[:label_num]
        relevant = scatter.bincount(pred, label_num + 1)[:label_num]
        tp_mask = xp.where(pred == true, true, label_num)
        tp = scatter.bincount(tp_mask, label_num + 1)[:label_num]
        # 0/0 gives nan for classes never predicted / never present, as in Chainer
        with numpy.errstate(divide='ignore', invalid='ignore'):   # (CuPy never warns)
            precision = tp / relevant
            recall = tp / support
            fbeta = _fbeta_score(precision, recall, self.beta)
        return precision, recall, fbeta, support


    def __call__(self, *inputs):
        """Apply like an old-style Chainer Function (a fresh node per call once used)."""
        node = copy.copy(self) if self.inputs is not None else self
        return node.apply(inputs)


def classification_summary(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Precision, recall, F-beta score and support of each class.

    Args:
        y (Variable or ndarray): Scores `(N, C, ...)`; the prediction is
            the arg-max over axis 1.
        t (Variable or ndarray): Integer labels `(N, ...)`.
        label_num (int): Number of classes; inferred as `max(t) + 1` when None.
        beta (float): The `beta` of the F-beta score.
        ignore_label (int): Samples with this label are ignored.

    Returns:
        tuple: `(precision, recall, fbeta_score, support)`, each a Variable of length
        `label_num`; the first three are float64 (as in Chainer), `nan` where the
        denominator is 0; support holds integer counts.
    """
    return ClassificationSummary(label_num, beta, ignore_label)(y, t)


def precision(y, t, label_num=None, ignore_label=-1):
    """Per-class precision; returns `(precision, support)` (see classification_summary)."""
    ret = ClassificationSummary(label_num, 1.0, ignore_label)(y, t)
    return ret[0], ret[-1]


def recall(y, t, label_num=None, ignore_label=-1):
    """Per-class recall; returns `(recall, support)` (see classification_summary)."""
    ret = ClassificationSummary(label_num, 1.0, ignore_label)(y, t)
    return ret[1], ret[-1]


def fbeta_score(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Per-class F-beta score; returns `(fbeta, support)` (see classification_summary)."""
    ret = ClassificationSummary(label_num, beta, ignore_label)(y, t)
    return ret[2], ret[-1]


def f1_score(y, t, label_num=None, ignore_label=-1):
    """Per-class F1 score; returns `(f1, support)` (see classification_summary)."""
    ret = ClassificationSummary(label_num, 1.0, ignore_label)(y, t)
    return ret[2], ret[-1]
