"""Group normalization."""
import warnings

from minichainer import backend
from minichainer import function_node
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.cast import cast
from minichainer.functions.array.reshape import reshape
from minichainer.functions.math.sum import sum as _sum
from minichainer.functions.normalization.batch_normalization import batch_normalization
from minichainer.variable import as_variable


class _MulInvStd(function_node.FunctionNode):
    """`z = inv_std[:, None] * y` where `inv_std` is that of each row of `x`.

    Inputs `(x, y)` of shape (rows, units); `mean`/`inv_std` (x's row statistics)
    are given to the constructor as Chainer's helper of the same name takes them. The
    backward also differentiates `inv_std` with respect to `x` (double backprop
    works: it is built from differentiable functions).
    """

    def __init__(self, eps, mean, inv_std, dummy_gamma):
        self.eps = eps
        self.mean = mean
        self.inv_std = inv_std
        self.dummy_gamma = dummy_gamma

    def forward(self, inputs):
        self.retain_inputs((0,))
        _, y = inputs
        self.retain_outputs((0,))
        return self.inv_std[:, None] * y,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        z, = self.get_retained_outputs()
        gz, = grad_outputs
        n = x.shape[1]
        inv_n = x.dtype.type(1. / n)
        d = x - broadcast_to(_sum(x, axis=1, keepdims=True) * inv_n, x.shape)
        var = _sum(d * d, axis=1, keepdims=True) * inv_n
        inv_std = broadcast_to((var + x.dtype.type(self.eps)) ** -0.5, x.shape)
        ret = []
        if 0 in indexes:
            gz_z = broadcast_to(_sum(gz * z, axis=1, keepdims=True) * inv_n, x.shape)
            ret.append(-(d * inv_std * gz_z * inv_std))
        if 1 in indexes:
            ret.append(inv_std * gz)
        return ret


def group_normalization(x, groups, gamma, beta, eps=1e-5):
    """Group normalization: normalize each group of channels of each sample.

    Args:
        x (Variable or ndarray): (batch, channels, ...) input.
        groups (int): number of channel groups; must divide the channel count.
        gamma, beta (Variable or ndarray): (channels,) scale and shift.
        eps (float): added to the variance.

    Raises:
        InvalidType: if `x` has fewer than 2 axes.
        ValueError: if `groups` does not divide the number of channels.
    """
    if x.ndim < 2:
        raise type_check.InvalidType(
            'x.ndim >= 2', 'x.ndim = {} (x.shape = {})'.format(x.ndim, x.shape))
    if not isinstance(groups, int):
        raise TypeError("Argument: 'groups' type must be (int), got {}".format(
            type(groups).__name__))
    batch_size, channels = x.shape[:2]
    original_shape = x.shape
    for name, p in (('gamma', gamma), ('beta', beta)):
        if p.ndim != 1 or p.shape[0] != channels or p.dtype.kind != 'f':
            raise type_check.InvalidType(
                "{0}.ndim == 1, {0}.shape[0] == x.shape[1], {0}.dtype.kind == 'f'".format(
                    name),
                '{}.shape = {}, {}.dtype = {}, x.shape = {}, x.dtype = {}'.format(
                    name, p.shape, name, p.dtype, x.shape, x.dtype))
    if channels % groups != 0:
        raise ValueError("Argument: 'groups' must be a divisor of the number of channels "
                         '({}), got {}'.format(channels, groups))
    x = as_variable(x)
    xp = backend.get_array_module(x.array)
    # normalizing each (sample, group) slice is batch normalization over axes (0, 2)
    # of x reshaped to (1, batch * groups, -1) with unit scale and zero shift
    x = reshape(x, (1, batch_size * groups, -1))
    dummy_gamma = xp.ones(batch_size * groups, dtype=x.dtype)
    dummy_beta = xp.zeros(batch_size * groups, dtype=x.dtype)
    if x.shape[2] == 1:
        # One element per group (e.g. (batch, channels) input with groups == channels):
        # the statistics are trivially that element; batch_normalization's warning
        # about single-element statistics does not apply here.
        with warnings.catch_warnings():
            warnings.simplefilter('ignore', UserWarning)
            x = batch_normalization(x, dummy_gamma, dummy_beta, eps=eps)
    else:
        x = batch_normalization(x, dummy_gamma, dummy_beta, eps=eps)
    x = reshape(x, original_shape)
    if gamma.dtype != x.dtype or beta.dtype != x.dtype:
        # float16 activations with float32 parameters (mixed16)
        gamma = cast(gamma, x.dtype)
        beta = cast(beta, x.dtype)
    target_shape = (1, channels) + (1,) * (len(original_shape) - 2)
    gamma_b = broadcast_to(reshape(gamma, target_shape), original_shape)
    beta_b = broadcast_to(reshape(beta, target_shape), original_shape)
    return x * gamma_b + beta_b
