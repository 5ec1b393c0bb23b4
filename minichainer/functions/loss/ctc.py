"""Connectionist temporal classification (CTC) loss."""
import collections.abc

import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer.utils import type_check
from minichainer.functions.array.stack import stack
from minichainer.variable import as_array
from minichainer.functions.util import checks

_NEG_INF = -1e30


def _logsumexp(a, b):
    m = numpy.maximum(a, b)
    return m + numpy.log(numpy.exp(a - m) + numpy.exp(b - m))


def _ctc_one(log_y, labels, blank):
    """-log p(labels | log_y) and d(-log p)/d(logits) for one sequence.

    `log_y` is (T, V) log-softmax, `labels` a 1-d int array of length L.
    """
    T, V = log_y.shape
    path = numpy.full(2 * len(labels) + 1, blank, dtype=numpy.int64)
    path[1::2] = labels
    S = len(path)
    # transitions that may skip the blank in between (s - 2 -> s)
    skip = numpy.zeros(S, dtype=bool)
    if S > 2:
        skip[2:] = (path[2:] != blank) & (path[2:] != path[:-2])
    lp = log_y[:, path]  # (T, S)
    alpha = numpy.full((T, S), _NEG_INF)
    alpha[0, 0] = lp[0, 0]
    if S > 1:
        alpha[0, 1] = lp[0, 1]
    for t in range(1, T):
        prev = alpha[t - 1]
        a = prev.copy()
        a[1:] = _logsumexp(a[1:], prev[:-1])
        a[2:] = numpy.where(skip[2:], _logsumexp(a[2:], prev[:-2]), a[2:])
        alpha[t] = a + lp[t]
    beta = numpy.full((T, S), _NEG_INF)
    beta[T - 1, S - 1] = lp[T - 1, S - 1]
    if S > 1:
        beta[T - 1, S - 2] = lp[T - 1, S - 2]
    for t in range(T - 2, -1, -1):
        nxt = beta[t + 1]
        b = nxt.copy()
        b[:-1] = _logsumexp(b[:-1], nxt[1:])
        b[:-2] = numpy.where(skip[2:], _logsumexp(b[:-2], nxt[2:]), b[:-2])
        beta[t] = b + lp[t]
    if S > 1:
        log_p = _logsumexp(alpha[T - 1, S - 1], alpha[T - 1, S - 2])
    else:
        log_p = alpha[T - 1, S - 1]
    # occupation of each label at each time: sum_s alpha * beta / y
    ab = alpha + beta - lp  # (T, S)
    occ = numpy.full((T, V), _NEG_INF)
    for s in range(S):
        k = path[s]
        occ[:, k] = _logsumexp(occ[:, k], ab[:, s])
    grad = numpy.exp(log_y) - numpy.exp(occ - log_p)
    return -log_p, grad


class ConnectionistTemporalClassification(function_node.FunctionNode):
    """FunctionNode of the CTC loss; inputs `(input_length, label_length, t, xs)`.

    `xs` is the (T, B, V) stack of unnormalized scores. Double backprop is not
    supported (as in Chainer).
    """

    def __init__(self, blank_symbol, reduce='mean'):
        self.blank_symbol = blank_symbol
        self.reduce = checks.reduce_option(reduce, ('mean', 'no'))

    def check_type_forward(self, in_types):
        type_check._argname(in_types, ('input_length', 'label_length', 't', 'x'))
        input_length_type, label_length_type, t_type, x_type = in_types
        type_check.expect(
            input_length_type.dtype.kind == 'i',
            input_length_type.ndim == 1,
            label_length_type.dtype.kind == 'i',
            label_length_type.ndim == 1,
            t_type.ndim == 2,
            t_type.dtype.kind == 'i',
            x_type.ndim == 3,
            x_type.dtype.kind == 'f',
        )
        n_batch = x_type.shape[1]
        type_check.expect(
            t_type.shape[0] == n_batch,
            input_length_type.shape[0] == n_batch,
            label_length_type.shape[0] == n_batch,
        )

    def forward(self, inputs):
        input_length, label_length, t, xs = inputs
        T, B, V = xs.shape
        if input_length.size and (input_length.max() > T or input_length.min() < 1):
            raise ValueError('ctc: each input_length must be in [1, {}], got {}'.format(
                T, input_length))
        if t.size and (t.min() < 0 or t.max() >= V):
            bad = t[(t < 0) | (t >= V)].ravel()[0]
            raise ValueError('ctc: labels must satisfy 0 <= t < {} (the number of classes), '
                             'got {}'.format(V, int(bad)))
        x64 = xs.astype(numpy.float64)
        m = x64.max(axis=2, keepdims=True)
        log_y = x64 - m - numpy.log(numpy.exp(x64 - m).sum(axis=2, keepdims=True))
        loss = numpy.empty(B)
        grad = numpy.zeros((T, B, V))
        for b in range(B):
            Tb = int(input_length[b])
            labels = t[b, :int(label_length[b])]
            loss[b], grad[:Tb, b] = _ctc_one(log_y[:Tb, b], labels, self.blank_symbol)
        if self.reduce == 'mean':
            self._grad = (grad / B).astype(xs.dtype)
            return utils.force_array(loss.mean(), xs.dtype),
        self._grad = grad.astype(xs.dtype)
        return loss.astype(xs.dtype),

    def backward(self, indexes, grad_outputs):
        gloss, = grad_outputs
        gx, = _CTCGrad(self._grad, self.reduce).apply((gloss,))
        return None, None, None, gx


class _CTCGrad(function_node.FunctionNode):

    def __init__(self, grad, reduce):
        self.grad = grad
        self.reduce = reduce

    def forward(self, inputs):
        gloss, = inputs
        if self.reduce == 'mean':
            return self.grad * gloss,
        return self.grad * gloss[None, :, None],

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'connectionist_temporal_classification does not support double backprop')


def connectionist_temporal_classification(x, t, blank_symbol, input_length=None,
                                          label_length=None, reduce='mean'):
    """Connectionist temporal classification loss.

    Args:
        x (list of Variable or ndarray): time-major (B, V) unnormalized scores.
        t (Variable or ndarray): (B, L) int label sequences (no blanks).
        blank_symbol (int): index of the blank label.
        input_length (ndarray or None): (B,) valid lengths of `x` (default: all).
        label_length (ndarray or None): (B,) valid lengths of `t` (default: all).
        reduce (str): `'mean'` (batch mean) or `'no'` (per-sequence loss).

    Returns:
        Variable: `-log p(t | x)`.

    Raises:
        TypeError: if `x` is not a sequence or `blank_symbol` is not an int.
        ValueError: for out-of-range labels, lengths or `blank_symbol`.
    """
    if not isinstance(x, collections.abc.Sequence):
        raise TypeError('x must be a list of Variables, got {}'.format(type(x).__name__))
    if not isinstance(blank_symbol, int):
        raise TypeError('blank_symbol must be non-negative integer.')
    if not 0 <= blank_symbol < x[0].shape[1]:
        raise ValueError('blank_symbol must be in [0, {}), got {}'.format(
            x[0].shape[1], blank_symbol))
    if x[0].ndim != 2:
        raise ValueError('each element of x must be 2-dimensional, got ndim={}'.format(
            x[0].ndim))
    t = as_array(t)
    xp = backend.get_array_module(t)
    if input_length is None:
        input_length = xp.full(len(x[0]), len(x), dtype=numpy.int32)
    else:
        input_length = as_array(input_length)
    if label_length is None:
        label_length = xp.full(len(t), t.shape[1], dtype=numpy.int32)
    else:
        label_length = as_array(label_length)
    return ConnectionistTemporalClassification(blank_symbol, reduce).apply(
        (input_length, label_length, t, stack(x)))[0]
