"""Local response normalization across channels."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions import _fast
from minichainer.functions.math import _elementwise


def _window_sum(a, half_n):
    """Sum of `a` over the channel window [c - half_n, c + half_n] (axis 1)."""
    s = a.copy()
    for i in range(1, half_n + 1):
        s[:, i:] += a[:, :-i]
        s[:, :-i] += a[:, i:]
    return s


class _ChannelWindowSum(function_node.FunctionNode):
    """Symmetric channel-window sum; it is self-adjoint, so backward is itself."""

    def __init__(self, half_n):
        self.half_n = half_n

    def forward(self, inputs):
        return _window_sum(inputs[0], self.half_n),

    def backward(self, indexes, grad_outputs):
        return _ChannelWindowSum(self.half_n).apply(grad_outputs)


class LocalResponseNormalization(function_node.FunctionNode):
    """FunctionNode of
    [`local_response_normalization`][minichainer.functions.normalization.local_response_normalization.local_response_normalization]."""

    def __init__(self, n=5, k=2, alpha=1e-4, beta=.75):
        self.n = n
        self.k = k
        self.alpha = alpha
        self.beta = beta

    def check_type_forward(self, in_types):
        _elementwise.check_float_x_ndim(in_types, 2)

    def forward(self, inputs):
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        unit_scale = self.k + self.alpha * _window_sum(xp.square(x), self.n // 2)
        scale = unit_scale ** -self.beta
        # kept for the backward, as Chainer keeps them (no second window sum and power)
        self._unit_scale = unit_scale
        self._scale = scale
        return (x * scale).astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            y, = self.get_retained_outputs()
            return _fast.as_grad(self._grad_array(x.array, y.array, gy.array)),
        ws = _ChannelWindowSum(self.n // 2)
        unit = self.k + self.alpha * ws.apply((x * x,))[0]
        scale = unit ** -self.beta
        y = x * scale
        summand = y * gy / unit
        s = _ChannelWindowSum(self.n // 2).apply((summand,))[0]
        gx = gy * scale - (2 * self.alpha * self.beta) * x * s
        return gx,

    def _grad_array(self, x, y, gy):
        """The gradient from the forward's `unit_scale` and `scale` (Chainer's CPU
        formula, the roundings of the differentiable path above)."""
        summand = y * gy
        summand /= self._unit_scale
        s = _window_sum(summand, self.n // 2)
        t = (2 * self.alpha * self.beta) * x
        t *= s
        gx = gy * self._scale
        gx -= t
        return gx.astype(x.dtype, copy=False)


def local_response_normalization(x, n=5, k=2, alpha=1e-4, beta=.75):
    """Local response normalization across channels.

    `y_i = x_i / (k + alpha * sum_{j in window(i)} x_j ** 2) ** beta`, the window being
    the `n` channels centered at `i` (axis 1).
    """
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]
