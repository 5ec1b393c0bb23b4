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


def _logsumexp(a, b, xp):
    m = xp.maximum(a, b)
    return m + xp.log(xp.exp(a - m) + xp.exp(b - m))


def _ctc_batch(log_y, t, input_length, label_length, blank):
    """-log p(labels | log_y) (B,) and d(-log p)/d(logits) (T, B, V) of every sequence.

    `log_y` is the (T, B, V) log-softmax; sequence b has `input_length[b]` steps and the
    labels `t[b, :label_length[b]]`. The forward (alpha) and backward (beta) recursions
    over its path (the labels with blanks around them) run along the time axis with the
    batch and the path positions as array axes: positions past a sequence's own path read
    a log-probability of `_NEG_INF`, so they never reach a real one
    (`_logsumexp(x, -1e30)` is x exactly), and each sequence's beta starts at its own
    last step. On a GPU the paths are as long as `t` allows (`2 * t.shape[1] + 1`), so
    that no length is read back to the host; the extra positions are padding like any
    other."""
    xp = backend.get_array_module(log_y)
    T, B, V = log_y.shape
    lengths = xp.asarray(label_length, dtype=numpy.int64)
    if xp is numpy:
        longest = int(lengths.max()) if B else 0
    else:
        longest = t.shape[1]
    S_max = 2 * longest + 1
    S = 2 * lengths + 1                                   # (B,)
    path = xp.full((B, S_max), blank, dtype=numpy.int64)
    labels = t[:, :longest]
    path[:, 1::2] = xp.where(xp.arange(longest) < lengths[:, None], labels, blank)
    inside = xp.arange(S_max) < S[:, None]                # (B, S_max)
    skip = xp.zeros((B, S_max), dtype=bool)
    if S_max > 2:
        skip[:, 2:] = (path[:, 2:] != blank) & (path[:, 2:] != path[:, :-2]) & inside[:, 2:]
    rows = xp.arange(B)
    lp = log_y[:, rows[:, None], path]                    # (T, B, S_max)
    lp = xp.where(inside, lp, _NEG_INF)
    alpha = xp.full((T, B, S_max), _NEG_INF)
    alpha[0, :, 0] = lp[0, :, 0]
    if S_max > 1:
        alpha[0, :, 1] = xp.where(S > 1, lp[0, :, 1], _NEG_INF)
    for step in range(1, T):
        prev = alpha[step - 1]
        a = prev.copy()
        a[:, 1:] = _logsumexp(a[:, 1:], prev[:, :-1], xp)
        a[:, 2:] = xp.where(skip[:, 2:], _logsumexp(a[:, 2:], prev[:, :-2], xp), a[:, 2:])
        alpha[step] = a + lp[step]
    ends = xp.asarray(input_length, dtype=numpy.int64) - 1    # (B,)
    last, second = S - 1, xp.maximum(S - 2, 0)
    init = xp.full((B, S_max), _NEG_INF)
    init[rows, last] = lp[ends, rows, last]
    init[rows, second] = xp.where(S > 1, lp[ends, rows, second], init[rows, second])
    beta = xp.full((T, B, S_max), _NEG_INF)
    for step in range(T - 1, -1, -1):
        if step < T - 1:
            nxt = beta[step + 1]
            bt = nxt.copy()
            bt[:, :-1] = _logsumexp(bt[:, :-1], nxt[:, 1:], xp)
            bt[:, :-2] = xp.where(skip[:, 2:], _logsumexp(bt[:, :-2], nxt[:, 2:], xp),
                                  bt[:, :-2])
            beta[step] = bt + lp[step]
        beta[step] = xp.where((ends == step)[:, None], init,
                              xp.where((ends < step)[:, None], _NEG_INF, beta[step]))
    final = alpha[ends, rows]                             # (B, S_max)
    log_p = xp.where(S > 1, _logsumexp(final[rows, last], final[rows, second], xp),
                     final[rows, last])
    ab = alpha + beta - lp
    occ = xp.full((T, B, V), _NEG_INF)
    for s in range(S_max):
        k = path[:, s]
        update = _logsumexp(occ[:, rows, k], ab[:, :, s], xp)
        occ[:, rows, k] = xp.where(inside[:, s], update, occ[:, rows, k])
    grad = xp.exp(log_y) - xp.exp(occ - log_p[:, None])
    past_end = xp.arange(T)[:, None] > ends                # (T, B)
    if xp is numpy:
        grad[past_end] = 0
    else:   # (a boolean-mask assignment reads the mask's count back on a GPU)
        grad = xp.where(past_end[:, :, None], 0., grad)
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
        type_check.argname(in_types, ('input_length', 'label_length', 't', 'x'))
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
        xp = backend.get_array_module(xs)
        if checks.values_checked(xp):
            self._check_values(input_length, t, T, V)
        x64 = xs.astype(numpy.float64)
        m = x64.max(axis=2, keepdims=True)
        log_y = x64 - m - xp.log(xp.exp(x64 - m).sum(axis=2, keepdims=True))
        loss, grad = _ctc_batch(log_y, t, input_length, label_length, self.blank_symbol)
        if self.reduce == 'mean':
            self._grad = (grad / B).astype(xs.dtype)
            return utils.force_array(loss.mean(), xs.dtype),
        self._grad = grad.astype(xs.dtype)
        return loss.astype(xs.dtype),

    @staticmethod
    def _check_values(input_length, t, T, V):
        if input_length.size and (input_length.max() > T or input_length.min() < 1):
            raise ValueError('ctc: each input_length must be in [1, {}], got {}'.format(
                T, input_length))
        if t.size and (t.min() < 0 or t.max() >= V):
            bad = t[(t < 0) | (t >= V)].ravel()[0]
            raise ValueError('ctc: labels must satisfy 0 <= t < {} (the number of classes), '
                             'got {}'.format(V, int(bad)))

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
