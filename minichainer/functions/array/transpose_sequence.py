"""Transposing a list of sequences (`chainer.functions.transpose_sequence`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


def _transpose(xs, length):
    """Time-major <-> batch-major: `out[t][i] = xs[i][t]`; `xs` sorted by length."""
    if length == 0:
        return ()
    xp = backend.get_array_module(*xs)
    lens = numpy.array([len(x) for x in xs], dtype=numpy.intp)
    starts = numpy.concatenate(([0], numpy.cumsum(lens[:-1])))
    steps = numpy.arange(length)
    valid = steps[:, None] < lens[None, :]                     # (length, len(xs))
    rows = (starts[None, :] + steps[:, None])[valid]           # time-major order
    # One gather from the concatenated sequences, then cut it into the time steps.
    gathered = xp.concatenate(xs, axis=0)[rows if xp is numpy else xp.asarray(rows)]
    counts = valid.sum(axis=1)
    bounds = numpy.concatenate(([0], numpy.cumsum(counts)))
    return tuple(gathered[bounds[t]:bounds[t + 1]] for t in range(length))


class TransposeSequence(function_node.FunctionNode):
    """Transpose a list of arrays sorted by decreasing length."""

    def __init__(self, length):
        self._length = length

    def check_type_forward(self, xs_type):
        for p, n in zip(xs_type, xs_type[1:]):
            type_check.expect(p.shape[0] >= n.shape[0], p.shape[1:] == n.shape[1:])

    def forward(self, xs):
        if not xs:
            return ()
        ys = _transpose(xs, self._length)
        self._out_shapes = [y.shape for y in ys]
        return ys

    def backward(self, indexes, grad_outputs):
        xp = backend.get_array_module(*[g for g in grad_outputs if g is not None])
        grads = []
        for g, shape in zip(grad_outputs, self._out_shapes):
            if g is None:
                g = xp.zeros(shape, dtype=self.inputs[0].dtype)
            grads.append(g)
        return TransposeSequence(len(self.inputs)).apply(grads)


def transpose_sequence(xs):
    """Transpose a list of variables sorted by decreasing length.

    Turns `B` sequences of shapes `(L_i, ...)` into `max(L_i)` variables where the
    `t`-th holds the `t`-th step of every sequence at least `t + 1` long.

    Args:
        xs (list of Variable or numpy.ndarray): Sequences sorted by length
            in decreasing order.

    Returns:
        tuple of Variable: The transposed sequences.
    """
    if not xs:
        return ()
    return TransposeSequence(len(xs[0])).apply(xs)
