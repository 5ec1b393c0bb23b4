"""Tree-structured LSTM unit (`chainer.functions.tree_lstm`).

One unit merges the cell states of `N` children with an input signal `x` whose
second axis holds `3 + N` equal blocks: the cell input `a`, the input gate `i`, the
output gate `o` and one forget gate `f_k` per child (in that order, as contiguous
blocks, unlike [`lstm`][minichainer.functions.activation.lstm.lstm] whose gates are interleaved).

Deliberate difference from Chainer: Chainer's `TreeLSTM` is an old-style
`Function` (no double backprop); here it is a `FunctionNode` whose gradient is
itself differentiable when `enable_backprop` is on during backward.
"""
import copy

from minichainer import backend
from minichainer import function_node
from minichainer.functions import _fast
from minichainer.utils import type_check
from minichainer.functions.activation.sigmoid import sigmoid
from minichainer.functions.activation.tanh import tanh
from minichainer.functions.array.concat import concat
from minichainer.functions.array.split_axis import split_axis


def _extract_gates(x, n_split=5):
    """Cut axis 1 of `x` into `n_split` contiguous blocks of equal width.

    Returns a list of `n_split` views of shape `(B, x.shape[1] // n_split, ...)`.
    """
    width = x.shape[1] // n_split
    r = x.reshape((x.shape[0], n_split, width) + x.shape[2:])
    return [r[:, k] for k in range(n_split)]


def _sigmoid(x, xp):
    half = x.dtype.type(0.5)
    return xp.tanh(x * half) * half + half


class TreeLSTM(function_node.FunctionNode):
    """TreeLSTM unit `(c_1, ..., c_N, x) -> (c, h)` for `N >= 1` children.

    `x` has shape `(B, (3 + N) * U, ...)` and every `c_k` has `(B, U, ...)`.
    """

    def __call__(self, *inputs):
        """Old-style call as in Chainer (`TreeLSTM()(c1, ..., x)` -> `(c, h)`)."""
        node = copy.copy(self) if self.inputs is not None else self
        return node.apply(inputs)

    def check_type_forward(self, in_types):
        n_in = type_check.eval(in_types.size())
        if n_in < 2:
            raise type_check.InvalidType(
                'in_types.size() >= 2',
                'in_types.size() == {} (tree_lstm needs at least one child cell state '
                'c and the input x)'.format(n_in))
        n_ary = n_in - 1
        type_check.argname(
            in_types, tuple('c{}'.format(k) for k in range(1, n_ary + 1)) + ('x',))
        c_types, x_type = in_types[:-1], in_types[-1]
        type_check.expect(x_type.ndim >= 2)
        for c_type in c_types:
            type_check.expect(
                c_type.dtype.kind == 'f',
                x_type.dtype == c_type.dtype,
                c_type.ndim == x_type.ndim,
                x_type.shape[0] == c_type.shape[0],
                x_type.shape[1] == (3 + n_ary) * c_type.shape[1],
            )
            for axis in range(2, type_check.eval(c_type.ndim)):
                type_check.expect(x_type.shape[axis] == c_type.shape[axis])

    def forward(self, inputs):
        self.retain_inputs(tuple(range(len(inputs))))
        cs, x = inputs[:-1], inputs[-1]
        xp = backend.get_array_module(x)
        gates = _extract_gates(x, 3 + len(cs))
        a = xp.tanh(gates[0])
        # i, o and all forget gates are one contiguous block: a single sigmoid pass.
        sig = _sigmoid(x.reshape((x.shape[0], 3 + len(cs)) + gates[0].shape[1:])[:, 1:],
                       xp)
        i, o, fs = sig[:, 0], sig[:, 1], sig[:, 2:]
        c = a * i
        for k, c_child in enumerate(cs):
            c += fs[:, k] * c_child
        tanh_c = xp.tanh(c)
        h = o * tanh_c
        self._a = a
        self._sig = sig
        self._tanh_c = tanh_c
        return c, h

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        gc, gh = grad_outputs
        if _fast.needs_graph():
            return _differentiable_grad(inputs, gc, gh)
        cs, x = [v.array for v in inputs[:-1]], inputs[-1].array
        xp = backend.get_array_module(x)
        n_ary = len(cs)
        a, sig, tanh_c = self._a, self._sig, self._tanh_c
        i, o = sig[:, 0], sig[:, 1]
        gx = xp.empty_like(x)
        gates = _extract_gates(gx, 3 + n_ary)
        # Gradient reaching c: from the c output and through h = o * tanh(c).
        if gh is None:
            gates[2][...] = 0
            g_cell = xp.zeros_like(a) if gc is None else gc.array.copy()
        else:
            gh = gh.array
            gates[2][...] = gh * tanh_c * o * (1 - o)
            g_cell = gh * o * (1 - tanh_c * tanh_c)
            if gc is not None:
                g_cell += gc.array
        gates[0][...] = g_cell * i * (1 - a * a)
        gates[1][...] = g_cell * a * i * (1 - i)
        gcs = []
        for k in range(n_ary):
            f = sig[:, 2 + k]
            gates[3 + k][...] = g_cell * cs[k] * f * (1 - f)
            gcs.append(_fast.as_grad(g_cell * f))
        gcs.append(_fast.as_grad(gx))
        return tuple(gcs)


def _differentiable_grad(inputs, gc, gh):
    """Gradient of `TreeLSTM` built from differentiable functions."""
    cs, x = inputs[:-1], inputs[-1]
    n_ary = len(cs)
    pre = split_axis(x, 3 + n_ary, axis=1)
    a = tanh(pre[0])
    i = sigmoid(pre[1])
    o = sigmoid(pre[2])
    fs = [sigmoid(p) for p in pre[3:]]
    c = a * i
    for f, c_child in zip(fs, cs):
        c = c + f * c_child
    tanh_c = tanh(c)
    if gh is None:
        go = o * 0
        g_cell = gc if gc is not None else c * 0
    else:
        go = gh * tanh_c * o * (1 - o)
        g_cell = gh * o * (1 - tanh_c * tanh_c)
        if gc is not None:
            g_cell = g_cell + gc
    ga = g_cell * i * (1 - a * a)
    gi = g_cell * a * i * (1 - i)
    gfs = [g_cell * c_child * f * (1 - f) for f, c_child in zip(fs, cs)]
    gx = concat([ga, gi, go] + gfs, axis=1)
    return tuple(g_cell * f for f in fs) + (gx,)


def tree_lstm(*inputs):
    """TreeLSTM unit as an activation function (N-ary and Child-Sum TreeLSTM).

    With children cell states `c_1, ..., c_N` and the input `x` cut along axis 1
    into `3 + N` equal contiguous blocks `a, i, o, f_1, ..., f_N`:

        c = tanh(a) * sigmoid(i) + sum_k sigmoid(f_k) * c_k
        h = sigmoid(o) * tanh(c)

    See Tai et al., "Improved Semantic Representations From Tree-Structured Long
    Short-Term Memory Networks" (2015) and Bowman et al., "A Fast Unified Model for
    Parsing and Sentence Understanding" (2016).

    Args:
        inputs: `c_1, ..., c_N, x` ([`Variable`][minichainer.variable.Variable] or ndarray), each
            `c_k` of shape `(B, U, ...)` and `x` of shape `(B, (3 + N) * U, ...)`,
            all of one floating dtype; at least one `c_k` is required.

    Returns:
        tuple: `(c, h)`, the new cell state and the output, both `(B, U, ...)`.

    Raises:
        InvalidType: for missing inputs or mismatched
            shapes or dtypes.
    """
    return TreeLSTM().apply(inputs)
