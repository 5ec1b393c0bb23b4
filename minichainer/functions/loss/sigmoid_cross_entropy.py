"""Sigmoid cross entropy loss for multi-label binary classification."""
from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.functions.evaluation import label_checks
from minichainer.utils import type_check
from minichainer.functions.activation.sigmoid import sigmoid
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


def _sigmoid(x):
    half = x.dtype.type(0.5)
    return utils.force_array(backend.get_array_module(x).tanh(x * half) * half + half)


class SigmoidCrossEntropy(function_node.FunctionNode):
    """FunctionNode of
    [`sigmoid_cross_entropy`][minichainer.functions.loss.sigmoid_cross_entropy.sigmoid_cross_entropy]
    (inputs `(x, t)`)."""

    ignore_label = -1

    def __init__(self, normalize=True, reduce='mean'):
        self.normalize = normalize
        self.reduce = checks.reduce_option(reduce, ('mean', 'no'))
        self.count = None

    def check_type_forward(self, in_types):
        x_type, t_type = label_checks.float_scores_int_labels(in_types)
        type_check.expect(
            x_type.shape == t_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        x, t = inputs
        if t.size and checks.values_checked(xp) and (t.min() < -1 or t.max() > 1):
            bad = t[(t < -1) | (t > 1)].ravel()[0]
            raise ValueError(
                'sigmoid_cross_entropy: each label t must be 0 or 1 (or the ignore label '
                '-1), got {}'.format(int(bad)))
        self.ignore_mask = t != self.ignore_label
        # log(1 + exp(x)) - t x, written to avoid overflow for large |x|
        loss = -(self.ignore_mask
                 * (x * (t - (x >= 0)) - xp.log1p(xp.exp(-xp.abs(x)))))
        if self.reduce != 'mean':
            return utils.force_array(loss.astype(x.dtype, copy=False)),
        if self.normalize:
            count = xp.maximum(1, self.ignore_mask.sum())
        else:
            count = max(1, len(x))
        self.count = count
        return utils.force_array(xp.divide(xp.sum(loss), self.count), dtype=x.dtype),

    def backward(self, indexes, grad_outputs):
        x, t = self.get_retained_inputs()
        gy, = grad_outputs
        gx, = SigmoidCrossEntropyGrad(
            self.reduce, self.count, self.ignore_mask, t.array).apply((x, gy))
        return gx, None


class SigmoidCrossEntropyGrad(function_node.FunctionNode):
    """Gradient of
    [`sigmoid_cross_entropy`][minichainer.functions.loss.sigmoid_cross_entropy.sigmoid_cross_entropy]
    w.r.t. `x` (inputs `(x, gy)`)."""

    def __init__(self, reduce, count, ignore_mask, t):
        self.reduce = reduce
        self.count = count
        self.ignore_mask = ignore_mask
        self.t = t

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        x, gy = inputs
        y = _sigmoid(x)
        if self.reduce == 'mean':
            gx = xp.divide(gy * self.ignore_mask * (y - self.t), self.count).astype(
                y.dtype, copy=False)
        else:
            gx = (gy * self.ignore_mask * (y - self.t)).astype(y.dtype, copy=False)
        return gx,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        dtype = x.dtype
        mask = self.ignore_mask.astype(dtype)
        y = sigmoid(x)
        ret = []
        if self.reduce == 'mean':
            coeff = dtype.type(1.0 / self.count)
            if 0 in indexes:
                gyb = broadcast_to(gy, x.shape)
                ret.append(gyb * ggx * y * (1 - y) * (mask * coeff))
            if 1 in indexes:
                ret.append(_sum(ggx * (y - self.t.astype(dtype)) * (mask * coeff)))
        else:
            if 0 in indexes:
                ret.append(gy * ggx * y * (1 - y) * mask)
            if 1 in indexes:
                ret.append(ggx * (y - self.t.astype(dtype)) * mask)
        return ret


def sigmoid_cross_entropy(x, t, normalize=True, reduce='mean'):
    """Cross entropy of `sigmoid(x)` against binary labels `t` (-1 = ignored).

    Args:
        x (Variable or ndarray): float logits of any shape.
        t (Variable or ndarray): int labels of x's shape, values 0, 1 or -1.
        normalize (bool): for `reduce='mean'`, divide by the number of non-ignored
            labels (True) or by the batch size (False).
        reduce (str): `'mean'` or `'no'`.

    Returns:
        Variable: scalar loss, or elementwise loss for `reduce='no'`.
    """
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]
