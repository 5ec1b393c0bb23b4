"""Type checks shared by the evaluation functions of scores `x` and labels `t`."""
from minichainer.utils import type_check


def float_scores_int_labels(in_types):
    """Check inputs named `(x, t)` of a float and an integer dtype; return their types."""
    type_check.argname(in_types, ('x', 't'))
    x_type, t_type = in_types
    type_check.expect(
        x_type.dtype.kind == 'f',
        t_type.dtype.kind == 'i',
    )
    return x_type, t_type


def class_scores_and_labels(in_types):
    """Check class scores `x` (batch, classes, ...) against labels `t` (batch, ...).

    Axes of `x` beyond those of `t` (after the class axis) must have size 1.
    """
    x_type, t_type = float_scores_int_labels(in_types)
    t_ndim = type_check.eval(t_type.ndim)
    type_check.expect(
        x_type.ndim >= t_type.ndim,
        x_type.shape[0] == t_type.shape[0],
        x_type.shape[2: t_ndim + 1] == t_type.shape[1:],
    )
    for i in range(t_ndim + 1, type_check.eval(x_type.ndim)):
        type_check.expect(x_type.shape[i] == 1)
