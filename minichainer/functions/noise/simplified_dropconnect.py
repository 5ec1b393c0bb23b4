"""Simplified DropConnect linear layer (`chainer.functions.simplified_dropconnect`)."""
import numpy

from minichainer import backend
from minichainer import function_node
from minichainer import utils
from minichainer import variable
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.cast import cast
from minichainer.functions.array.reshape import reshape
from minichainer.functions.math.matmul import matmul
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.util import checks


def _as_mat(x):
    if x.ndim == 2:
        return x
    return x.reshape(len(x), -1)


class SimplifiedDropconnect(function_node.FunctionNode):
    """Linear function whose weights are masked at random (per sample by default)."""

    def __init__(self, ratio, mask=None, use_batchwise_mask=True):
        self.ratio = ratio
        self.mask = mask
        self.use_batchwise_mask = use_batchwise_mask

    def check_type_forward(self, in_types):
        n_in, x_type, w_type = checks.expect_x_W(in_types)
        type_check.expect(
            x_type.ndim >= 2,
            w_type.ndim == 2,
            type_check.prod(x_type.shape[1:]) == w_type.shape[1],
        )
        checks.expect_bias(in_types, n_in, x_type, w_type.shape[0])
        if self.mask is not None:
            if self.use_batchwise_mask:
                type_check.expect(
                    self.mask.shape[0] == x_type.shape[0],
                    self.mask.shape[1:] == w_type.shape,
                )
            else:
                type_check.expect(self.mask.shape == w_type.shape)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        scale = inputs[1].dtype.type(1. / (1 - self.ratio))
        xp = backend.get_array_module(*inputs)
        if self.mask is None:
            if self.use_batchwise_mask:
                mask_shape = (inputs[0].shape[0], inputs[1].shape[0], inputs[1].shape[1])
            else:
                mask_shape = (inputs[1].shape[0], inputs[1].shape[1])
            self.mask = xp.random.rand(*mask_shape) >= self.ratio
        elif isinstance(self.mask, variable.Variable):
            self.mask = self.mask.array
        x = _as_mat(inputs[0])
        W = inputs[1] * scale * self.mask
        if W.ndim == 3:
            y = xp.einsum('bjk,bk->bj', W, x)
        else:
            y = x.dot(W.T)
        y = y.astype(x.dtype, copy=False)
        if len(inputs) == 3:
            y += inputs[2]
        return utils.force_array(y),

    def backward(self, indexes, grad_outputs):
        inputs = self.get_retained_inputs()
        x_in, W = inputs[0], inputs[1]
        dtype = W.dtype
        scale = dtype.type(1. / (1 - self.ratio))
        smask = self.mask.astype(dtype) * scale
        x = reshape(x_in, (x_in.shape[0], -1)) if x_in.ndim != 2 else x_in
        gy, = grad_outputs
        batch = x.shape[0]
        ret = []
        if 0 in indexes:
            if self.use_batchwise_mask:
                Wm = broadcast_to(W, smask.shape) * smask
                gx = reshape(matmul(reshape(gy, (batch, 1, -1)), Wm), x_in.shape)
            else:
                gx = reshape(matmul(gy, W * smask), x_in.shape)
            if gx.dtype != x_in.dtype:
                # x and W may differ in dtype; each gradient takes its input's dtype.
                gx = cast(gx, x_in.dtype)
            ret.append(gx)
        if 1 in indexes:
            if self.use_batchwise_mask:
                gy3 = broadcast_to(reshape(gy, gy.shape + (1,)), smask.shape)
                x3 = broadcast_to(reshape(x, (batch, 1, x.shape[1])), smask.shape)
                gW = _sum(gy3 * x3 * smask, axis=0)
            else:
                gW = matmul(gy, x, transa=True) * smask
            if gW.dtype != dtype:
                gW = cast(gW, dtype)
            ret.append(gW)
        if 2 in indexes:
            ret.append(_sum(gy, axis=0))
        return ret


def simplified_dropconnect(x, W, b=None, ratio=.5, train=True, mask=None,
                           use_batchwise_mask=True):
    """Linear unit with simplified DropConnect: `y = x (W * M / (1 - ratio))^T + b`.

    The mask `M` is `numpy.random.rand(B, out, in) >= ratio` per sample (or
    `rand(out, in)` shared by the batch when `use_batchwise_mask` is False).

    Args:
        x (Variable or ndarray): Input `(B, ...)`; flattened to `(B, in)`.
        W (Variable or ndarray): Weight `(out, in)`.
        b (Variable or ndarray): Optional bias `(out,)`.
        ratio (float): Dropconnect ratio.
        train (bool): When False the ratio is taken as 0 (no masking).
        mask (ndarray or Variable): Optional bool mask to use instead of drawing one.
        use_batchwise_mask (bool): Draw a different mask for each sample.

    Returns:
        Variable: Output `(B, out)`.
    """
    if not train:
        ratio = 0
    if b is None:
        return SimplifiedDropconnect(ratio, mask, use_batchwise_mask).apply((x, W))[0]
    return SimplifiedDropconnect(ratio, mask, use_batchwise_mask).apply((x, W, b))[0]
