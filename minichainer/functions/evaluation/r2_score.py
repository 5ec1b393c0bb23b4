"""Coefficient of determination (`chainer.functions.r2_score`)."""
import copy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


class R2_score(function_node.FunctionNode):
    """R^2 regression score along axis 0 (not differentiable).

    Chainer implements this as an old-style `Function`; here it is a FunctionNode that
    can also be called like one.
    """

    def __init__(self, sample_weight, multioutput):
        if sample_weight is not None:
            raise NotImplementedError('r2_score: sample_weight is not supported')
        if multioutput in ('uniform_average', 'raw_values'):
            self.multioutput = multioutput
        else:
            raise ValueError("r2_score: multioutput must be 'uniform_average' or "
                             "'raw_values', got {!r}".format(multioutput))

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('pred', 'true'))
        pred_type, true_type = in_types
        type_check.expect(
            pred_type.dtype.kind == 'f',
            true_type.dtype.kind == 'f',
        )
        type_check.expect(pred_type.shape == true_type.shape)

    def forward(self, inputs):
        pred, true = inputs
        xp = backend.get_array_module(pred)
        ss_res = xp.asarray(xp.sum((pred - true) ** 2, axis=0))
        ss_tot = xp.asarray(xp.sum((true - xp.mean(true, axis=0)) ** 2, axis=0))
        ss_tot_iszero = ss_tot == 0
        ss_tot[ss_tot_iszero] = 1
        ret = xp.where(ss_tot_iszero, 0.0, 1 - ss_res / ss_tot).astype(pred.dtype, copy=False)
        if self.multioutput == 'uniform_average':
            return xp.asarray(ret.mean()),
        return xp.asarray(ret),


    def __call__(self, *inputs):
        """Apply like an old-style Chainer Function (a fresh node per call once used)."""
        node = copy.copy(self) if self.inputs is not None else self
        return node.apply(inputs)[0]


def r2_score(pred, true, sample_weight=None, multioutput='uniform_average'):
    """R^2 (coefficient of determination) score, `1 - SS_res / SS_tot` per output column.

    Columns whose targets are constant score 0.

    Args:
        pred (Variable or ndarray): Predictions (float).
        true (Variable or ndarray): Targets (float), same shape.
        sample_weight: Must be None (not supported, as in Chainer).
        multioutput (str): `'uniform_average'` (mean over columns) or `'raw_values'`.

    Returns:
        Variable: The score (0-dim, or one per column for `'raw_values'`).

    Raises:
        NotImplementedError: `sample_weight` is given.
        ValueError: `multioutput` is not one of the two values.
    """
    return R2_score(sample_weight=sample_weight, multioutput=multioutput)(pred, true)
