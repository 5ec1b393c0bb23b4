"""Long short-term memory unit (`chainer.functions.lstm`).

Chainer 7 keeps this in `chainer/functions/rnn/lstm.py`; here it lives in the activation
package (as in Chainer <= 5) and is re-exported from `minichainer.functions`.
"""
import copy

from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check


def extract_gates(x):
    """Split `x` of shape `(B, 4N, ...)` into the interleaved gates `a, i, f, o`."""
    r = x.reshape((len(x), x.shape[1] // 4, 4) + x.shape[2:])
    return [r[:, :, i] for i in range(4)]


def _sigmoid(x, xp):
    half = x.dtype.type(0.5)
    return xp.tanh(x * half) * half + half


def _grad_sigmoid(x):
    return x * (1 - x)


def _grad_grad_sigmoid(x):
    return x * (1 - x) * (1 - 2 * x)


def _grad_tanh(x):
    return 1 - x * x


def _grad_grad_tanh(x, gx):
    return -2 * x * gx


def zeros_for_missing(grads, likes):
    """`grads` with each None replaced by zeros like the matching array of `likes`."""
    xp = backend.get_array_module(*likes)
    return tuple(xp.zeros_like(like) if g is None else g for g, like in zip(grads, likes))


def sigmoid_grads(x, xp):
    """`sigmoid(x)` and its first and second derivatives, written in terms of it."""
    y = _sigmoid(x, xp)
    return y, _grad_sigmoid(y), _grad_grad_sigmoid(y)


def tanh_grads(x, xp):
    """`tanh(x)` and its first and second derivatives, written in terms of it."""
    y = xp.tanh(x)
    gy = _grad_tanh(y)
    return y, gy, _grad_grad_tanh(y, gy)


class LSTM(function_node.FunctionNode):
    """LSTM unit: `c, h = lstm(c_prev, x)` with gates interleaved along axis 1 of `x`."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('c', 'x'))
        c_type, x_type = in_types
        type_check.expect(
            c_type.dtype.kind == 'f',
            x_type.dtype == c_type.dtype,
            c_type.ndim >= 2,
            x_type.ndim >= 2,
            c_type.ndim == x_type.ndim,
            x_type.shape[0] <= c_type.shape[0],
            x_type.shape[1] == 4 * c_type.shape[1],
        )
        for i in range(2, type_check.eval(c_type.ndim)):
            type_check.expect(x_type.shape[i] == c_type.shape[i])

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        c_prev, x = inputs
        xp = backend.get_array_module(x)
        a, i, f, o = extract_gates(x)
        batch = len(x)
        a = xp.tanh(a)
        i = _sigmoid(i, xp)
        f = _sigmoid(f, xp)
        o = _sigmoid(o, xp)
        c_next = xp.empty_like(c_prev)
        c_next[:batch] = a * i + f * c_prev[:batch]
        h = o * xp.tanh(c_next[:batch])
        c_next[batch:] = c_prev[batch:]
        self.retain_outputs((0,))
        return c_next, h

    def backward(self, indexes, grads):
        c_prev, x = self.get_retained_inputs()
        c_next, = self.get_retained_outputs()
        gc, gh = zeros_for_missing(grads, (c_next.array, c_next.array[:len(x.array)]))
        return LSTMGrad().apply((c_prev, x, c_next, gc, gh))


class LSTMGrad(function_node.FunctionNode):
    """Gradient of `LSTM`: `(c_prev, x, c_next, gc, gh) -> (gc_prev, gx)`."""

    def __call__(self, *inputs):
        """Apply like an old-style Chainer Function (a fresh node per call once used)."""
        node = copy.copy(self) if self.inputs is not None else self
        return node.apply(inputs)

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2, 3, 4))
        xp = backend.get_array_module(*inputs)
        c_prev, x, c_next, gc, gh = inputs
        batch = len(x)
        gx = xp.empty_like(x)
        ga, gi, gf, go = extract_gates(gx)
        a, i, f, o = extract_gates(x)
        tanh_a = xp.tanh(a)
        sig_i = _sigmoid(i, xp)
        sig_f = _sigmoid(f, xp)
        sig_o = _sigmoid(o, xp)
        co = xp.tanh(c_next[:batch])
        gc_prev = xp.empty_like(c_prev)
        gc_prev[:batch] = gh * sig_o * _grad_tanh(co) + gc[:batch]
        gcb = gc_prev[:batch]
        ga[:] = gcb * sig_i * _grad_tanh(tanh_a)
        gi[:] = gcb * tanh_a * _grad_sigmoid(sig_i)
        gf[:] = gcb * c_prev[:batch] * _grad_sigmoid(sig_f)
        go[:] = gh * co * _grad_sigmoid(sig_o)
        gc_prev[:batch] *= sig_f
        gc_prev[batch:] = gc[batch:]
        return gc_prev, gx

    def backward(self, indexes, grads):
        c_prev, x, c_next, gc, gh = self.get_retained_inputs()
        ggc_prev, ggx = zeros_for_missing(grads, (c_prev.array, x.array))
        return _LSTMGradGrad().apply((c_prev, x, c_next, gc, gh, ggc_prev, ggx))


class _LSTMGradGrad(function_node.FunctionNode):
    """Second-order gradient of `LSTM` (not differentiable further, as in Chainer)."""

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        c_prev, x, c, gc, gh, ggc_prev, ggx = inputs
        batch = len(x)
        gc_prev = xp.zeros_like(c_prev)
        gx = xp.empty_like(x)
        gc_next = xp.zeros_like(c)
        ggc = xp.empty_like(c_prev)
        ggc[batch:] = ggc_prev[batch:]

        c_prev = c_prev[:batch]
        c = c[:batch]
        gc = gc[:batch]
        ggc_prev = ggc_prev[:batch]
        a, i, f, o = extract_gates(x)
        gga, ggi, ggf, ggo = extract_gates(ggx)
        ga, gi, gf, go = extract_gates(gx)

        sig_o, gsig_o, ggsig_o = sigmoid_grads(o, xp)
        sig_i, gsig_i, ggsig_i = sigmoid_grads(i, xp)
        sig_f, gsig_f, ggsig_f = sigmoid_grads(f, xp)
        tanh_a, gtanh_a, ggtanh_a = tanh_grads(a, xp)
        tanh_c, gtanh_c, ggtanh_c = tanh_grads(c, xp)

        gc_bar = gh * sig_o * gtanh_c + gc
        gc_prev[:batch] = ggf * gc_bar * gsig_f
        ga[:] = (gga * sig_i * ggtanh_a + ggi * gtanh_a * gsig_i) * gc_bar
        gi[:] = (gga * gtanh_a * gsig_i + ggi * tanh_a * ggsig_i) * gc_bar
        gf[:] = (ggc_prev * gc_bar * gsig_f
                 + ggf * gc_bar * c_prev * ggsig_f)
        ggc_b = (ggc_prev * sig_f + gga * sig_i * gtanh_a + ggi * tanh_a * gsig_i
                 + ggf * c_prev * gsig_f)
        ggc[:batch] = ggc_b
        go[:] = ggc_b * gh * gsig_o * gtanh_c + ggo * gh * tanh_c * ggsig_o
        gc_next[:batch] = ggc_b * gh * sig_o * ggtanh_c + ggo * gh * gtanh_c * gsig_o
        ggh = ggc_b * sig_o * gtanh_c + ggo * tanh_c * gsig_o
        return gc_prev, gx, gc_next, ggc, ggh


def lstm(c_prev, x):
    """Long Short-Term Memory unit as an activation function.

    `x` of shape `(B, 4N, ...)` holds the pre-activations of the input `a`, input
    gate `i`, forget gate `f` and output gate `o`, interleaved along axis 1
    (`x[:, 4k:4k+4]` are the four values of unit `k`). Then
    `c = tanh(a) * sigmoid(i) + sigmoid(f) * c_prev` and `h = sigmoid(o) * tanh(c)`.
    `x` may have fewer rows than `c_prev`; the remaining rows of `c_prev` are copied
    to `c` unchanged.

    Args:
        c_prev (Variable or ndarray): Previous cell state `(B', N, ...)`.
        x (Variable or ndarray): Gate pre-activations `(B, 4N, ...)`, `B <= B'`.

    Returns:
        tuple: `(c, h)`; `c` has the shape of `c_prev`, `h` has `B` rows.
    """
    return LSTM().apply((c_prev, x))


_extract_gates = extract_gates  # Chainer's name
