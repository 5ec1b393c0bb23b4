"""Classification accuracy (`chainer.functions.accuracy`)."""
import os
import sys
import warnings

import numpy

from minichainer import backend
from minichainer import configuration
from minichainer import function_node
from minichainer.functions.util import checks
from minichainer.functions.evaluation import label_checks


def _user_stacklevel():
    """The `stacklevel` that attributes a warning to the first caller outside
    minichainer (the user's call of `F.accuracy` or of a Classifier)."""
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    frame = sys._getframe(1)
    level = 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(
            package + os.sep):
        frame = frame.f_back
        level += 1
    return level


class Accuracy(function_node.FunctionNode):
    """Fraction of samples whose arg-max over axis 1 equals the label (not differentiable)."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        label_checks.class_scores_and_labels(in_types)

    def _check_labels(self, y, t):
        # A label outside [0, n_class) can never match the arg-max: it is counted as a
        # miss, which is almost always a bug in the data (Chainer is silent).
        n_class = y.shape[1]
        if int(t.min()) >= 0 and int(t.max()) < n_class:
            return
        bad = (t < 0) | (t >= n_class)
        if self.ignore_label is not None:
            bad &= t != self.ignore_label
        n_bad = int(bad.sum())
        if n_bad == 0:
            return
        example = int(t[bad].ravel()[0])
        message = (
            'accuracy: {} label(s) of t are outside [0, {}) (the class axis of y) and are '
            'not ignore_label={!r}, e.g. {}; they are counted as misclassified'.format(
                n_bad, n_class, self.ignore_label, example))
        if configuration.config.debug:
            raise ValueError(message)
        warnings.warn(message, RuntimeWarning, stacklevel=_user_stacklevel())

    def forward(self, inputs):
        y, t = inputs
        xp = backend.get_array_module(y)
        if t.size and y.ndim > 1 and checks.values_checked(xp):
            self._check_labels(y, t)
        pred = y.argmax(axis=1).reshape(t.shape)
        if self.ignore_label is not None:
            mask = t == self.ignore_label
            ignore_cnt = mask.sum()
            pred = xp.where(mask, self.ignore_label, pred)
            count = (pred == t).sum() - ignore_cnt
            total = t.size - ignore_cnt
            if xp is not numpy:   # on the device, without reading the counts back
                acc = (count / xp.maximum(total, 1)).astype(y.dtype)
                acc = xp.where(total == 0, y.dtype.type(0), acc)
            elif total == 0:
                acc = xp.asarray(0.0, dtype=y.dtype)
            else:
                acc = xp.asarray(float(count) / total, dtype=y.dtype)
        elif xp is not numpy:
            acc = (pred == t).mean(dtype=y.dtype)
        elif y.dtype.kind == 'f' and y.dtype.itemsize >= 4 and t.size:
            # The same float division ``mean`` does (the count is exact in float32
            # below 2**24), without numpy's Python-level ``mean``.
            dtype = y.dtype.type
            acc = xp.asarray(dtype(xp.count_nonzero(pred == t)) / dtype(t.size))
        else:
            acc = xp.asarray((pred == t).mean(dtype=y.dtype))
        return acc,


def accuracy(y, t, ignore_label=None):
    """Accuracy of a classification: the mean of `argmax(y, axis=1) == t`.

    Args:
        y (Variable or ndarray): Scores `(N, C, ...)` (float).
        t (Variable or ndarray): Integer labels `(N, ...)`.
        ignore_label (int or None): Samples with this label are left out of both the
            numerator and the denominator; 0 is returned when every label is ignored.

    A label outside `[0, n_class)` that is not `ignore_label` is counted as a miss
    (as in Chainer) and a `RuntimeWarning` is issued; under `config.debug` it
    raises `ValueError` instead.

    Returns:
        Variable: 0-dim Variable of `y`'s dtype.
    """
    acc, = Accuracy(ignore_label=ignore_label).apply((y, t))
    return acc
