"""Embedding lookup `y = W[x]`."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.util import checks
from minichainer.utils import scatter
from minichainer.utils import type_check


def _check_ids(x, n_vocab, ignore_label):
    """Raise ValueError when an id is outside [0, n_vocab) and not ignore_label."""
    if x.size == 0:
        return
    lo = x.min()
    hi = x.max()
    if 0 <= lo and hi < n_vocab:
        return
    xp = backend.get_array_module(x)
    bad = (x < 0) | (x >= n_vocab)
    if ignore_label is not None:
        bad &= x != ignore_label
    if bad.any():
        value = x[bad].ravel()[0]
        raise ValueError(
            'embed_id: each id in x must satisfy 0 <= x < len(W) = {} (or equal '
            'ignore_label={}), got {}'.format(n_vocab, ignore_label, int(value)))
    del xp


class EmbedIDFunction(function_node.FunctionNode):
    """FunctionNode of [`embed_id`][minichainer.functions.connection.embed_id.embed_id] (inputs
    `(x, W)`)."""

    def __init__(self, ignore_label=None):
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x', 'W'))
        x_type, w_type = in_types
        type_check.expect(
            x_type.dtype.kind == 'i',
            x_type.ndim >= 1,
        )
        type_check.expect(
            w_type.dtype.kind == 'f',
            w_type.ndim == 2,
        )

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, W = inputs
        self._w_shape = W.shape
        xp = backend.get_array_module(*inputs)
        if checks.values_checked(xp):
            _check_ids(x, len(W), self.ignore_label)
        if self.ignore_label is not None:
            mask = x == self.ignore_label
            return xp.where(mask[..., None], 0, W[xp.where(mask, 0, x)]).astype(
                W.dtype, copy=False),
        return W[x],

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        gW = EmbedIDGrad(self._w_shape, self.ignore_label).apply(
            inputs + grad_outputs)[0]
        return None, gW


class EmbedIDGrad(function_node.FunctionNode):
    """Gradient of [`embed_id`][minichainer.functions.connection.embed_id.embed_id] w.r.t. `W`
    (inputs `(x, gy)`)."""

    def __init__(self, w_shape, ignore_label=None):
        self.w_shape = w_shape
        self.ignore_label = ignore_label

    def forward(self, inputs):
        self.retain_inputs((0,))
        xp = backend.get_array_module(*inputs)
        x, gy = inputs
        gW = xp.zeros(self.w_shape, dtype=gy.dtype)
        gy2 = gy.reshape(-1, gy.shape[-1])
        ids = x.ravel()
        if self.ignore_label is not None:
            keep = ids != self.ignore_label
            if xp is numpy:
                ids = ids[keep]
                gy2 = gy2[keep]
            else:   # no boolean selection (its size would be read back from the device)
                ids = xp.where(keep, ids, 0)
                gy2 = gy2 * keep[:, None]
        scatter.add_rows(gW, ids, gy2)
        return gW,

    def backward(self, indexes, grads):
        x, = self.get_retained_inputs()
        ggW, = grads
        return None, embed_id(x, ggW, self.ignore_label)


def embed_id(x, W, ignore_label=None):
    """Efficient linear function for one-hot input: `y[..., :] = W[x[...]]`.

    Args:
        x (Variable or ndarray): int array of ids, any shape with ndim >= 1.
        W (Variable or ndarray): (n_vocab, n_units) float embedding matrix.
        ignore_label (int or None): ids equal to it give zero vectors.

    Returns:
        Variable: array of shape `x.shape + (n_units,)`.

    Raises:
        ValueError: if an id is outside `[0, n_vocab)` and is not `ignore_label`
            (Chainer only checks this in debug mode; on CuPy arrays so does
            minichainer, as the check would read the ids back from the GPU).
    """
    return EmbedIDFunction(ignore_label=ignore_label).apply((x, W))[0]
