"""S-LSTM unit for tree-structured networks (`chainer.functions.slstm`).

Chainer 7 keeps this in `chainer/functions/rnn/slstm.py`; here it lives in the activation
package and is re-exported from `minichainer.functions`.
"""
import copy

from minichainer import backend
from minichainer import function_node
from minichainer.functions.activation.lstm import _extract_gates
from minichainer.functions.activation.lstm import _grad_sigmoid
from minichainer.functions.activation.lstm import _grad_tanh
from minichainer.functions.activation.lstm import _sigmoid
from minichainer.functions.activation.lstm import sigmoid_grads
from minichainer.functions.activation.lstm import tanh_grads
from minichainer.functions.activation.lstm import zeros_for_missing
from minichainer.utils import type_check


def _gates_buffer(x, xp):
    """An uninitialised gradient buffer like `x` and its gate views `a, i, f, o`."""
    gx = xp.empty_like(x)
    return gx, _extract_gates(gx)


class SLSTM(function_node.FunctionNode):
    """S-LSTM unit merging two children: `c, h = slstm(c_prev1, c_prev2, x1, x2)`."""

    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('c_prev1', 'c_prev2', 'x1', 'x2'))
        c1_type, c2_type, x1_type, x2_type = in_types
        type_check.expect(
            c1_type.dtype.kind == 'f',
            c2_type.dtype == c1_type.dtype,
            x1_type.dtype == c1_type.dtype,
            x2_type.dtype == c1_type.dtype,
            c1_type.ndim >= 2,
            c2_type.ndim >= 2,
            x1_type.ndim >= 2,
            x2_type.ndim >= 2,
            c1_type.ndim == x1_type.ndim,
            c1_type.ndim == c2_type.ndim,
            c1_type.ndim == x2_type.ndim,
            c1_type.shape[0] == x1_type.shape[0],
            c1_type.shape[0] == c2_type.shape[0],
            c1_type.shape[0] == x2_type.shape[0],
            x1_type.shape[1] == 4 * c1_type.shape[1],
            x2_type.shape[1] == 4 * c2_type.shape[1],
        )
        for i in range(2, type_check.eval(c1_type.ndim)):
            type_check.expect(x1_type.shape[i] == c1_type.shape[i])
            type_check.expect(x2_type.shape[i] == c2_type.shape[i])
            type_check.expect(x1_type.shape[i] == x2_type.shape[i])

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2, 3))
        c_prev1, c_prev2, x1, x2 = inputs
        xp = backend.get_array_module(x1)
        a1, i1, f1, o1 = _extract_gates(x1)
        a2, i2, f2, o2 = _extract_gates(x2)
        c = (xp.tanh(a1) * _sigmoid(i1, xp) + xp.tanh(a2) * _sigmoid(i2, xp)
             + _sigmoid(f1, xp) * c_prev1 + _sigmoid(f2, xp) * c_prev2)
        h = _sigmoid(o1 + o2, xp) * xp.tanh(c)
        self.retain_outputs((0,))
        return c, h

    def backward(self, indexes, grads):
        c_prev1, c_prev2, x1, x2 = self.get_retained_inputs()
        c, = self.get_retained_outputs()
        gc, gh = zeros_for_missing(grads, (c.array, c.array))
        return SLSTMGrad().apply((c_prev1, c_prev2, x1, x2, c, gc, gh))


class SLSTMGrad(function_node.FunctionNode):
    """Gradient of `SLSTM`: `(c1, c2, x1, x2, c, gc, gh) -> (gc1, gc2, gx1, gx2)`."""

    def __call__(self, *inputs):
        """Apply like an old-style Chainer Function (a fresh node per call once used)."""
        node = copy.copy(self) if self.inputs is not None else self
        return node.apply(inputs)

    def forward(self, inputs):
        self.retain_inputs(tuple(range(7)))
        xp = backend.get_array_module(*inputs)
        c_prev1, c_prev2, x1, x2, c_next, gc, gh = inputs
        gx1, (ga1, gi1, gf1, go1) = _gates_buffer(x1, xp)
        gx2, (ga2, gi2, gf2, go2) = _gates_buffer(x2, xp)
        a1, i1, f1, o1 = _extract_gates(x1)
        a2, i2, f2, o2 = _extract_gates(x2)
        tanh_a1 = xp.tanh(a1)
        sig_i1 = _sigmoid(i1, xp)
        sig_f1 = _sigmoid(f1, xp)
        tanh_a2 = xp.tanh(a2)
        sig_i2 = _sigmoid(i2, xp)
        sig_f2 = _sigmoid(f2, xp)
        sig_o = _sigmoid(o1 + o2, xp)
        co = xp.tanh(c_next)
        gcb = gh * sig_o * _grad_tanh(co) + gc
        ga1[:] = gcb * sig_i1 * _grad_tanh(tanh_a1)
        gi1[:] = gcb * tanh_a1 * _grad_sigmoid(sig_i1)
        gf1[:] = gcb * c_prev1 * _grad_sigmoid(sig_f1)
        go1[:] = gh * co * _grad_sigmoid(sig_o)
        ga2[:] = gcb * sig_i2 * _grad_tanh(tanh_a2)
        gi2[:] = gcb * tanh_a2 * _grad_sigmoid(sig_i2)
        gf2[:] = gcb * c_prev2 * _grad_sigmoid(sig_f2)
        go2[:] = go1
        return gcb * sig_f1, gcb * sig_f2, gx1, gx2

    def backward(self, indexes, grads):
        inputs = self.get_retained_inputs()
        c_prev1, c_prev2, x1, x2 = inputs[:4]
        grads = zeros_for_missing(grads, (c_prev1.array, c_prev2.array, x1.array, x2.array))
        return _SLSTMGradGrad().apply(inputs + grads)


class _SLSTMGradGrad(function_node.FunctionNode):
    """Second-order gradient of `SLSTM` (not differentiable further, as in Chainer)."""

    def forward(self, inputs):
        xp = backend.get_array_module(*inputs)
        (c_prev1, c_prev2, x1, x2, c, gc, gh,
         ggc_prev1, ggc_prev2, ggx1, ggx2) = inputs
        gx1, (ga1, gi1, gf1, go1) = _gates_buffer(x1, xp)
        gx2, (ga2, gi2, gf2, go2) = _gates_buffer(x2, xp)
        a1, i1, f1, o1 = _extract_gates(x1)
        a2, i2, f2, o2 = _extract_gates(x2)
        gga1, ggi1, ggf1, ggo1 = _extract_gates(ggx1)
        gga2, ggi2, ggf2, ggo2 = _extract_gates(ggx2)

        sig_o, gsig_o, ggsig_o = sigmoid_grads(o1 + o2, xp)
        sig_i1, gsig_i1, ggsig_i1 = sigmoid_grads(i1, xp)
        sig_i2, gsig_i2, ggsig_i2 = sigmoid_grads(i2, xp)
        sig_f1, gsig_f1, ggsig_f1 = sigmoid_grads(f1, xp)
        sig_f2, gsig_f2, ggsig_f2 = sigmoid_grads(f2, xp)
        tanh_a1, gtanh_a1, ggtanh_a1 = tanh_grads(a1, xp)
        tanh_a2, gtanh_a2, ggtanh_a2 = tanh_grads(a2, xp)
        tanh_c, gtanh_c, ggtanh_c = tanh_grads(c, xp)

        gc_bar = gh * sig_o * gtanh_c + gc
        gc_prev1 = ggf1 * gc_bar * gsig_f1
        gc_prev2 = ggf2 * gc_bar * gsig_f2
        ga1[:] = (gga1 * sig_i1 * ggtanh_a1 + ggi1 * gtanh_a1 * gsig_i1) * gc_bar
        ga2[:] = (gga2 * sig_i2 * ggtanh_a2 + ggi2 * gtanh_a2 * gsig_i2) * gc_bar
        gi1[:] = (gga1 * gtanh_a1 * gsig_i1 + ggi1 * tanh_a1 * ggsig_i1) * gc_bar
        gi2[:] = (gga2 * gtanh_a2 * gsig_i2 + ggi2 * tanh_a2 * ggsig_i2) * gc_bar
        gf1[:] = ggc_prev1 * gc_bar * gsig_f1 + ggf1 * gc_bar * c_prev1 * ggsig_f1
        gf2[:] = ggc_prev2 * gc_bar * gsig_f2 + ggf2 * gc_bar * c_prev2 * ggsig_f2
        ggc = (ggc_prev1 * sig_f1 + gga1 * sig_i1 * gtanh_a1 + ggi1 * tanh_a1 * gsig_i1
               + ggf1 * c_prev1 * gsig_f1
               + ggc_prev2 * sig_f2 + gga2 * sig_i2 * gtanh_a2 + ggi2 * tanh_a2 * gsig_i2
               + ggf2 * c_prev2 * gsig_f2)
        ggo = ggo1 + ggo2
        go1[:] = ggc * gh * gsig_o * gtanh_c + ggo * gh * tanh_c * ggsig_o
        go2[:] = go1
        gc_next = ggc * gh * sig_o * ggtanh_c + ggo * gh * gtanh_c * gsig_o
        ggh = ggc * sig_o * gtanh_c + ggo * tanh_c * gsig_o
        return gc_prev1, gc_prev2, gx1, gx2, gc_next, ggc, ggh


def slstm(c_prev1, c_prev2, x1, x2):
    """S-LSTM unit combining two child states (Zhu et al., 2015).

    `x1`, `x2` of shape `(B, 4N, ...)` hold interleaved gate pre-activations
    `a, i, f, o` for each child; `c = tanh(a1) sig(i1) + tanh(a2) sig(i2)
    + sig(f1) c_prev1 + sig(f2) c_prev2` and `h = sig(o1 + o2) tanh(c)`.

    Args:
        c_prev1 (Variable or ndarray): Cell state of the first child `(B, N, ...)`.
        c_prev2 (Variable or ndarray): Cell state of the second child `(B, N, ...)`.
        x1 (Variable or ndarray): Gate pre-activations of the first child.
        x2 (Variable or ndarray): Gate pre-activations of the second child.

    Returns:
        tuple: `(c, h)`, both of shape `(B, N, ...)`.
    """
    return SLSTM().apply((c_prev1, c_prev2, x1, x2))
