"""Log-softmax (`chainer.functions.log_softmax`)."""
from minichainer import backend
from minichainer import function_node
from minichainer.functions.activation.softmax import FloatAlongAxis
from minichainer.functions.array import broadcast
from minichainer.functions.math import exponential
from minichainer.functions.math import sum as sum_mod


def log_softmax_array(x, axis=1):
    """`x - log(sum(exp(x), axis, keepdims=True))` on an array, without overflow."""
    xp = backend.get_array_module(x)
    m = x.max(axis=axis, keepdims=True)
    y = x - m
    xp.exp(y, out=y)
    s = y.sum(axis=axis, keepdims=True)
    xp.log(s, out=s)
    m += s
    return x - m


class LogSoftmax(FloatAlongAxis):
    """Logarithm of softmax along `axis`."""

    def forward(self, inputs):
        x, = inputs
        y = log_softmax_array(x, axis=self.axis)
        self._x_xp = backend.get_array_module(x)
        self._x_shape = x.shape
        self._x_dtype = x.dtype
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes, gy):
        y, = self.get_retained_outputs()
        return LogSoftmaxGrad(
            self._x_xp, self._x_shape, self._x_dtype, self.axis).apply((y, gy[0]))


class LogSoftmaxGrad(function_node.FunctionNode):
    """`gy - exp(y) * sum(gy, axis)` as a differentiable function of `(y, gy)`."""

    def __init__(self, x_xp, x_shape, x_dtype, axis):
        self._x_xp = x_xp
        self._x_shape = x_shape
        self._x_dtype = x_dtype
        self.axis = axis

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        y, gy = inputs
        xp = self._x_xp
        gx = gy - xp.exp(y) * gy.sum(axis=self.axis, keepdims=True)
        return gx,

    def backward(self, indexes, ggx):
        y, gy = self.get_retained_inputs()
        ggx, = ggx
        exp_y = exponential.exp(y)
        ret = []
        if 0 in indexes:
            gy_sum = broadcast.broadcast_to(sum_mod.sum(gy, self.axis, True), gy.shape)
            ret.append(-ggx * exp_y * gy_sum)
        if 1 in indexes:
            a = broadcast.broadcast_to(sum_mod.sum(ggx * exp_y, self.axis, True), gy.shape)
            ret.append(ggx - a)
        return ret


def log_softmax(x, axis=1):
    """Channel-wise log-softmax, `x - log(sum(exp(x), axis))`, computed stably.

    Args:
        x (Variable or ndarray): Input float array.
        axis (int): The axis to normalise over.

    Returns:
        Variable: Output of the same shape and dtype.
    """
    return LogSoftmax(axis=axis).apply((x,))[0]
