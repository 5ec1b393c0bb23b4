"""Linear (fully-connected) function `y = x W^T + b`."""
import numpy

from minichainer import function_node
from minichainer.functions import _fast
from minichainer import utils
from minichainer.utils import type_check
from minichainer.functions.array.cast import cast
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


def _cast(v, dtype):
    if v.dtype == dtype:
        return v
    return cast(v, dtype)


class LinearFunction(function_node.FunctionNode):
    """FunctionNode of [`linear`][minichainer.functions.connection.linear.linear] on 2-D inputs
    `(x, W[, b])`."""

    def check_type_forward(self, in_types):
        n_in, x_type, w_type = checks.expect_x_W(in_types)
        type_check.expect(
            x_type.ndim == 2,
            w_type.ndim == 2,
            x_type.shape[1] == w_type.shape[1],
        )
        checks.expect_bias(in_types, n_in, x_type, w_type.shape[0])

    def forward(self, inputs):
        x = inputs[0]
        W = inputs[1]
        if x.dtype == W.dtype:
            y = x.dot(W.T)
        else:
            y = x.dot(W.T).astype(x.dtype, copy=False)
        if len(inputs) == 3:
            y += inputs[2]
        self.retain_inputs((0, 1))
        return y,

    def backward(self, indexes, grad_outputs):
        x, W = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return self._backward_arrays(indexes, x.array, W.array, gy.array)
        ret = []
        if 0 in indexes:
            gx, = LinearGradData().apply((W, gy))
            ret.append(_cast(gx, x.dtype))
        if 1 in indexes:
            gW, = LinearGradWeight(W.dtype).apply((x, gy))
            ret.append(_cast(gW, W.dtype))
        if 2 in indexes:
            ret.append(_sum(gy, axis=0))
        return ret


    @staticmethod
    def _backward_arrays(indexes, x, W, gy):
        # No double backprop: the three products, straight on the arrays.
        ret = []
        if 0 in indexes:
            gx = gy.dot(W)
            ret.append(_fast.as_grad(gx if gx.dtype == x.dtype else gx.astype(x.dtype)))
        if 1 in indexes:
            gW = gy.T.dot(x)
            ret.append(_fast.as_grad(gW if gW.dtype == W.dtype else gW.astype(W.dtype)))
        if 2 in indexes:
            ret.append(_fast.as_grad(gy.sum(axis=0)))
        return ret


class LinearGradData(function_node.FunctionNode):
    """Gradient of [`linear`][minichainer.functions.connection.linear.linear] w.r.t. `x`:
    `gx = gy W` (inputs `(W, gy)`)."""

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        W, gy = inputs
        gx = gy.dot(W)
        if gx.dtype != gy.dtype:
            gx = gx.astype(gy.dtype, copy=False)
        return gx,

    def backward(self, indexes, grad_outputs):
        W, gy = self.get_retained_inputs()
        ggx, = grad_outputs
        ret = []
        if 0 in indexes:
            gw, = LinearGradWeight(W.dtype).apply((ggx, gy))
            ret.append(_cast(gw, W.dtype))
        if 1 in indexes:
            ggy = linear(ggx, W)
            ret.append(_cast(ggy, gy.dtype))
        return ret


class LinearGradWeight(function_node.FunctionNode):
    """Gradient of [`linear`][minichainer.functions.connection.linear.linear] w.r.t. `W`:
    `gW = gy^T x` (inputs `(x, gy)`)."""

    def __init__(self, w_dtype):
        self._w_dtype = numpy.dtype(w_dtype)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gy = inputs
        gW = gy.T.dot(x)
        if gW.dtype != self._w_dtype:
            gW = gW.astype(self._w_dtype, copy=False)
        return gW,

    def backward(self, indexes, grad_outputs):
        x, gy = self.get_retained_inputs()
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            gx, = LinearGradData().apply((ggW, gy))
            ret.append(_cast(gx, x.dtype))
        if 1 in indexes:
            ggy = linear(x, ggW)
            ret.append(_cast(ggy, gy.dtype))
        return ret


def linear(x, W, b=None, n_batch_axes=1):
    """Linear function (affine transformation) `y = x W^T + b`.

    Args:
        x (Variable or ndarray): input; its first `n_batch_axes` axes are batch axes
            and the remaining axes are flattened into one of size `W.shape[1]`.
        W (Variable or ndarray): weight of shape `(M, N)`.
        b (Variable or ndarray or None): optional bias of shape `(M,)`.
        n_batch_axes (int): number of leading batch axes (> 0).

    Returns:
        Variable: output of shape `x.shape[:n_batch_axes] + (M,)`.

    Raises:
        ValueError: if `n_batch_axes` is not positive.
    """
    if n_batch_axes <= 0:
        raise ValueError('n_batch_axes should be greater than 0.')
    if n_batch_axes > 1:
        batch_shape = x.shape[:n_batch_axes]
        batch_size = utils.size_of_shape(batch_shape)
        x = x.reshape(batch_size, -1)
    elif x.ndim > 2:
        x = x.reshape(x.shape[0], -1)
    if b is None:
        args = x, W
    else:
        args = x, W, b
    y, = LinearFunction().apply(args)
    if n_batch_axes > 1:
        y = y.reshape(batch_shape + (-1,))
    return y
