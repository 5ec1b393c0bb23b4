"""Softmax cross entropy loss (fused, numerically stable)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import variable
from minichainer.utils import type_check
from minichainer.functions.activation.log_softmax import log_softmax
from minichainer.functions.activation.log_softmax import log_softmax_array
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.cast import cast
from minichainer.functions.array.reshape import reshape
from minichainer.functions.array.rollaxis import rollaxis
from minichainer.functions.array.select_item import select_item
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


def _check_class_weight_option(class_weight):
    if class_weight is not None:
        if isinstance(class_weight, variable.Variable):
            raise ValueError('class_weight should be a numpy.ndarray or cupy.ndarray, '
                             'not a chainer.Variable')
        if class_weight.ndim != 1:
            raise ValueError('class_weight.ndim should be 1, got {}'.format(
                class_weight.ndim))
        if class_weight.dtype.kind != 'f':
            raise ValueError("The dtype of class_weight should be 'f', got {}".format(
                class_weight.dtype))


def _check_input_values(x, t, ignore_label):
    """Raise ValueError for a label outside [0, n_class) that is not ignore_label."""
    if isinstance(x, variable.Variable):
        x = x.array
    if isinstance(t, variable.Variable):
        t = t.array
    n_class = x.shape[1]
    if t.size == 0:
        return
    bad = ((t < 0) | (t >= n_class)) & (t != ignore_label)
    if bad.any():
        value = t[bad].ravel()[0]
        raise ValueError(
            'Each label `t` need to satisfy `0 <= t < x.shape[1] or t == {}`: got '
            'label {} with {} classes'.format(ignore_label, int(value), n_class))


def _reduction_dtype(x_dtype):
    if x_dtype == numpy.float16:
        return numpy.dtype(numpy.float32)
    return x_dtype


def _soft_target_error(e, x_type, t_type):
    x_shape = tuple(type_check.eval(x_type.shape))
    t_shape = tuple(type_check.eval(t_type.shape))
    t_dtype = type_check.eval(t_type.dtype)
    hint = ('softmax_cross_entropy expects t to be integer class labels (an int '
            'array of shape x.shape[:1] + x.shape[2:], here {}) or soft targets of '
            "x's shape {} and a float dtype; got t of dtype {} and shape {}".format(
                x_shape[:1] + x_shape[2:], x_shape, t_dtype, t_shape))
    if t_dtype.kind != 'i' and len(t_shape) == len(x_shape) - 1:
        hint += ' (class labels? cast them with t.astype(numpy.int32))'
    return type_check.InvalidType(e.expect, e.actual, '{}\n{}'.format(e, hint))


def _class_weight_shape(ndim):
    return [1 if d != 1 else -1 for d in range(ndim)]


class SoftmaxCrossEntropy(function_node.FunctionNode):
    """FunctionNode of
    [`softmax_cross_entropy`][minichainer.functions.loss.softmax_cross_entropy.softmax_cross_entropy]
    (inputs `(x, t)`)."""

    normalize = True
    y = None
    _coeff = None
    soft_target = False
    eps = 1e-7

    def __init__(self, normalize=True, cache_score=True, class_weight=None,
                 ignore_label=-1, reduce='mean', soft_target_loss='cross-entropy'):
        self.normalize = normalize
        self.cache_score = cache_score
        _check_class_weight_option(class_weight)
        self.class_weight = class_weight
        self.ignore_label = ignore_label
        checks.reduce_option(reduce, ('mean', 'no'))
        self.reduce = reduce
        self.soft_target_loss = soft_target_loss

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        if type_check.eval(t_type.dtype.kind) == 'i':
            type_check.expect(
                x_type.dtype.kind == 'f',
                t_type.dtype.kind == 'i',
                t_type.ndim == x_type.ndim - 1,
                x_type.shape[0] == t_type.shape[0],
                x_type.shape[2:] == t_type.shape[1:],
            )
        else:
            # Soft targets.  Chainer's check, plus what was expected in words when it
            # fails outside light mode (float class labels of shape (N,) land here).
            try:
                type_check.expect(
                    x_type.dtype.kind == 'f',
                    t_type.dtype.kind == 'f',
                    x_type.shape == t_type.shape,
                )
            except type_check.InvalidType as e:
                if type_check.in_light_mode():
                    raise
                raise _soft_target_error(e, x_type, t_type) from None

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        self.retain_inputs((0, 1))
        x, t = inputs
        if x.ndim == t.ndim and x.shape == t.shape:
            self.soft_target = True
        elif xp is numpy and self._simple_case(x, t):
            return self._forward_simple(xp, x, t)
        if not self.soft_target and checks.values_checked(xp):
            _check_input_values(x, t, self.ignore_label)

        log_y = log_softmax_array(x)
        if self.cache_score:
            self.y = xp.exp(log_y)

        if self.soft_target:
            return self._soft_target_loss(xp, x, t, log_y)

        class_weight = self.class_weight
        if class_weight is not None:
            log_y *= xp.broadcast_to(
                class_weight.reshape(_class_weight_shape(x.ndim)), x.shape)
        log_yd = xp.moveaxis(log_y, 1, 0)
        log_yd = log_yd.reshape(len(log_yd), -1)
        t_valid = t != self.ignore_label
        t = t * t_valid
        log_p = log_yd[t.ravel(), xp.arange(t.size)]
        log_p *= t_valid.ravel()
        if self.reduce == 'mean':
            if self.normalize:
                count = t_valid.sum()
            else:
                count = len(x)
            reduc_dtype = _reduction_dtype(x.dtype)
            if xp is numpy:
                self._coeff = 1.0 / max(count, 1)
            else:   # a device scalar, as Chainer's (no read back to the host)
                self._coeff = xp.divide(1.0, xp.maximum(count, 1), dtype=reduc_dtype)
            y = log_p.sum(keepdims=True, dtype=reduc_dtype)
            y = y * (-self._coeff)
            y = y.astype(x.dtype, copy=False)
            return y.reshape(()),
        return -log_p.reshape(t.shape),

    _all_labels_valid = False

    def _simple_case(self, x, t):
        # The common case, done with fewer array operations: (N, C) scores, every label
        # in [0, C) (so none is ignore_label), no class weight, mean over the batch.
        if x.ndim != 2 or t.size == 0 or self.class_weight is not None or \
                self.reduce != 'mean':
            return False
        n_class = x.shape[1]
        if 0 <= self.ignore_label < n_class:
            return False
        return t.min() >= 0 and t.max() < n_class

    def _forward_simple(self, xp, x, t):
        self._all_labels_valid = True
        log_y = log_softmax_array(x)
        if self.cache_score:
            self.y = xp.exp(log_y)
        n = len(x)
        self._coeff = 1.0 / n
        log_p = log_y[xp.arange(n), t]
        y = log_p.sum(dtype=_reduction_dtype(x.dtype)) * (-self._coeff)
        return xp.asarray(y, dtype=x.dtype),

    def _soft_target_loss(self, xp, x, t, log_y):
        if self.soft_target_loss == 'kl-divergence':
            ret = xp.sum(t * (xp.log(t + self.eps) - log_y), axis=1)
        else:
            ret = -xp.sum(t * log_y, axis=1)
        if self.reduce == 'mean':
            self._coeff = 1.0 / (x.size / x.shape[1])
            ret = ret.sum(keepdims=True) * self._coeff
            return ret.reshape(()).astype(x.dtype, copy=False),
        return ret.astype(x.dtype, copy=False),

    def backward(self, input_indexes, grad_outputs):
        func_grad = _SoftmaxCrossEntropyGrad_NoDoubleBackprop(
            self.ignore_label, self.class_weight, self.y, self._coeff, self.soft_target)
        func_grad.all_labels_valid = self._all_labels_valid
        inputs = self.get_retained_inputs()
        return func_grad.apply(inputs + grad_outputs) + (None,)


class _SoftmaxCrossEntropyGrad_NoDoubleBackprop(function_node.FunctionNode):
    """Gradient of the fused softmax cross entropy (not differentiable again)."""

    all_labels_valid = False

    def __init__(self, ignore_label, class_weight, y, coeff, soft_target):
        self.ignore_label = ignore_label
        self.class_weight = class_weight
        self.y = y
        self.coeff = coeff
        self.soft_target = soft_target

    def forward(self, inputs_and_grad_outputs):
        x, t, gloss = inputs_and_grad_outputs
        xp = backend.get_array_module(x)
        if x.size == 0:
            return xp.zeros(x.shape, dtype=x.dtype),
        if self.y is not None:
            y = self.y.copy()
        else:
            y = log_softmax_array(x)
            xp.exp(y, out=y)
        if self.soft_target:
            gx = y - t
        elif self.all_labels_valid:
            gx = y
            gx[xp.arange(len(t)), t] -= 1
        else:
            t_valid = t != self.ignore_label
            t = t * t_valid
            n = len(t)
            gx = y.reshape(n, y.shape[1], -1)
            n_unit = gx.shape[2]
            idx0 = xp.repeat(xp.arange(n), n_unit)
            idx2 = xp.tile(xp.arange(n_unit), n)
            tr = t.ravel()
            gx[idx0, tr, idx2] -= 1
            if self.class_weight is not None:
                c = self.class_weight[tr].reshape(n, 1, n_unit)
                c = c.astype(gx.dtype, copy=False)
                gx *= c
            gx *= t_valid.reshape(n, 1, n_unit)
            gx = gx.reshape(y.shape)
        if self.coeff is not None:
            gx *= gloss * self.coeff
        else:
            gx *= gloss.reshape(gloss.shape[:1] + (1,) + gloss.shape[1:])
        return gx.astype(x.dtype, copy=False),

    def backward(self, input_indexes, grad_outputs):
        raise RuntimeError(
            'F.softmax_cross_entropy was called with enable_double_backprop=False '
            'argument, but double-backprop is actually being performed. Please specify '
            'enable_double_backprop=True explicitly.')


def _double_backward_softmax_cross_entropy(x, t, normalize, class_weight, ignore_label,
                                           reduce):
    if isinstance(t, variable.Variable):
        t = t.array
    _check_class_weight_option(class_weight)
    checks.reduce_option(reduce, ('mean', 'no'))
    xp = backend.get_array_module(t)
    if checks.values_checked(xp):
        _check_input_values(x, t, ignore_label)
    loss = -log_softmax(x)
    if class_weight is not None:
        cw = class_weight.reshape(_class_weight_shape(x.ndim)).astype(x.dtype, copy=False)
        cw = broadcast_to(cw, x.shape)
        loss = loss * cw
    in_use = (t != ignore_label).astype(x.dtype)
    loss = rollaxis(loss, 1, loss.ndim)
    loss = reshape(loss, (-1, loss.shape[-1]))
    t = t.clip(0, loss.shape[1] - 1)
    loss = select_item(loss, t.ravel())
    loss = reshape(loss, t.shape)
    loss = loss * in_use
    if reduce == 'mean':
        reduc_dtype = _reduction_dtype(x.dtype)
        if normalize:
            count = in_use.astype(reduc_dtype, copy=False).sum()
        else:
            count = len(x)
        count = max(count, 1.) if xp is numpy else xp.maximum(count, 1.)
        if reduc_dtype == loss.dtype:
            loss = _sum(loss / count)
        else:
            loss = cast(loss, reduc_dtype)
            loss = _sum(loss / count)
            loss = cast(loss, x.dtype)
    return loss


def softmax_cross_entropy(x, t, normalize=True, cache_score=True, class_weight=None,
                          ignore_label=-1, reduce='mean', enable_double_backprop=False,
                          soft_target_loss='cross-entropy'):
    """Cross entropy loss of `softmax(x)` against labels `t`, fused and stable.

    Args:
        x (Variable or ndarray): (N, C, ...) unnormalized log-probabilities.
        t (Variable or ndarray): (N, ...) int labels, or soft targets of x's shape.
        normalize (bool): for `reduce='mean'`, divide by the number of non-ignored
            labels (True) or by the batch size (False).
        cache_score (bool): keep `softmax(x)` from forward for backward.
        class_weight (ndarray or None): (C,) per-class weights.
        ignore_label (int): label value to ignore (no loss, no gradient).
        reduce (str): `'mean'` (scalar) or `'no'` (per-sample loss).
        enable_double_backprop (bool): use a slower implementation built from
            differentiable functions.
        soft_target_loss (str): `'cross-entropy'` or `'kl-divergence'` for soft
            targets.

    Returns:
        Variable: the loss.

    Raises:
        ValueError: on invalid options, or a label outside `[0, C)` that is not
            `ignore_label` (checked always; Chainer only checks in debug mode).
    """
    if soft_target_loss not in ('cross-entropy', 'kl-divergence'):
        raise ValueError("soft_target_loss must be 'cross-entropy' or 'kl-divergence'.")
    if not enable_double_backprop:
        func = SoftmaxCrossEntropy(normalize, cache_score, class_weight, ignore_label,
                                   reduce, soft_target_loss)
        loss, = func.apply((x, t))
        return loss
    return _double_backward_softmax_cross_entropy(x, t, normalize, class_weight,
                                                  ignore_label, reduce)
