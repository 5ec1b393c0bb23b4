"""Batch normalization (training-mode statistics) and fixed batch normalization."""
import warnings

import numpy

from minichainer import backend
from minichainer import function_node
from minichainer.variable import Variable
from minichainer.functions import _fast
from minichainer.utils import argument
from minichainer.utils import type_check
from minichainer.functions.array.broadcast import broadcast_to
from minichainer.functions.array.cast import cast
from minichainer.functions.array.reshape import reshape
from minichainer.functions.math.sum import sum as _sum


def _compute_axis(x_ndim, gamma_ndim=1, axis=None):
    if axis is None:
        axis = (0,) + tuple(range(gamma_ndim + 1, x_ndim))
    return axis


def _compute_key_axis(x_ndim, gamma_ndim=1, axis=None):
    axis = _compute_axis(x_ndim, gamma_ndim, axis)
    return tuple(i for i in range(x_ndim) if i not in axis)


def _expander(x_ndim, key_axis):
    return tuple(slice(None) if i in key_axis else None for i in range(x_ndim))


def _param_shape(x_shape, key_axis):
    """Shape that broadcasts a per-channel parameter against x."""
    return tuple(x_shape[i] if i in key_axis else 1 for i in range(len(x_shape)))


def _check_bn_types(in_types, axis):
    x_type, gamma_type, beta_type = in_types[:3]
    type_check.expect(
        x_type.dtype.kind == 'f',
        gamma_type.dtype.kind == 'f',
        gamma_type.dtype == beta_type.dtype,
        gamma_type.shape == beta_type.shape,
    )
    _x_ndim = type_check.eval(x_type.ndim)
    _gamma_ndim = type_check.eval(gamma_type.ndim)
    _axis = _compute_axis(_x_ndim, _gamma_ndim, axis)
    type_check.expect(x_type.ndim >= len(_axis))
    _key_axis = _compute_key_axis(_x_ndim, _gamma_ndim, _axis)
    type_check.expect(gamma_type.ndim == len(_key_axis))
    for i in range(len(_key_axis)):
        type_check.expect(x_type.shape[_key_axis[i]] == gamma_type.shape[i])


def _x_hat(x, mean, inv_std):
    x_mu = x - mean
    x_mu *= inv_std
    return x_mu


class BatchNormalization(function_node.FunctionNode):
    """FunctionNode of
    [`batch_normalization`][minichainer.functions.normalization.batch_normalization.batch_normalization]
    with mini-batch statistics.

    When `mean`/`var` (running statistics) arrays are given they are updated
    in place: `r = decay * r + (1 - decay) * stat` (unbiased variance).
    """

    mean = None
    inv_std = None

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, axis=None):
        self.running_mean = mean
        self.running_var = var
        self.eps = eps
        self.decay = decay
        if isinstance(axis, int):
            axis = axis,
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        _check_bn_types(in_types, self.axis)

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        if self.running_mean is None:
            self.running_mean = xp.zeros_like(gamma, dtype=x.dtype)
            self.running_var = xp.zeros_like(gamma, dtype=x.dtype)
        self.axis = _compute_axis(x.ndim, gamma.ndim, self.axis)
        self.key_axis = _compute_key_axis(x.ndim, gamma.ndim, self.axis)
        if all(x.shape[i] == 1 for i in self.axis):
            if 0 in self.axis:
                warnings.warn(
                    'A batch with no more than one sample has been given. '
                    'F.batch_normalization requires statistics computed over the '
                    'mini-batch, which will not be valid. Consider changing a model.',
                    UserWarning)
            else:
                warnings.warn(
                    'F.batch_normalization got an input with all axes of size 1 '
                    'for the statistics; the statistics will not be valid.',
                    UserWarning)
        expander = _expander(x.ndim, self.key_axis)
        self.expander = expander

        interm_dtype = numpy.promote_types(x.dtype, gamma.dtype)
        gamma_e = gamma[expander].astype(interm_dtype, copy=False)
        beta_e = beta[expander].astype(interm_dtype, copy=False)
        mean = x.mean(axis=self.axis, dtype=interm_dtype)
        x_mu = xp.subtract(x, mean[expander], dtype=interm_dtype)
        if _fused_var(x_mu):
            # feature maps: the sum of squares without a buffer of squares (einsum;
            # measured 2x faster on (64, 32, 32, 32)), y then written over x_mu.
            # Its summation order is not x.var's, but on feature maps Chainer's own
            # statistics depend on the memory layout of its convolution output
            # (channel-last), so bitwise equality was not to be had there anyway
            var = _sum_of_products(x_mu, x_mu, self.axis)
            y = x_mu
        else:
            # mean and variance exactly as x.mean/x.var compute them (so the running
            # statistics of (batch, units) inputs equal Chainer's bit for bit)
            y = xp.multiply(x_mu, x_mu)
            var = y.sum(axis=self.axis, dtype=interm_dtype)
        m = x.size // gamma.size
        xp.true_divide(var, m, out=var, casting='unsafe')
        inv_std = xp.reciprocal(xp.sqrt(var + eps_of(self.eps, interm_dtype),
                                        dtype=interm_dtype))
        if x.ndim <= 2:
            # (batch, units): Chainer's own rounding, ((x - mean) * inv_std) * gamma
            # + beta, so that y is bit-equal to Chainer's (one more pass; small arrays)
            x_mu *= inv_std[expander]
            xp.multiply(x_mu, gamma_e, out=y)
        else:
            # y = gamma * (x - mean) / std + beta, in place
            xp.multiply(x_mu, gamma_e * inv_std[expander], out=y)
        del x_mu
        y += beta_e
        y = y.astype(x.dtype, copy=False)

        running_mean = self.running_mean
        running_var = self.running_var
        if running_mean is not None:
            adjust = m / max(m - 1., 1.)  # unbiased estimation
            decay = self.decay
            running_mean *= decay
            running_mean += (1 - decay) * mean
            running_var *= decay
            running_var += (1 - decay) * adjust * var
        self.mean = mean
        self.var = var
        self.inv_std = inv_std
        return y,

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            gx, ggamma, gbeta = _bn_grad_arrays(
                x.array, gamma.array, gy.array, self.axis, self.expander, self.mean,
                self.inv_std)
            return _fast.as_grad(gx), _fast.as_grad(ggamma), _fast.as_grad(gbeta)
        f = BatchNormalizationGrad(self.eps, self.expander, self.axis, self.mean,
                                   self.inv_std, self.key_axis)
        return f.apply((x, gamma, gy))


def _fused_var(x_mu):
    """Whether the variance of the centred `x_mu` is summed by einsum (feature maps
    of float32/float64, where einsum accumulates in the array's own precision)."""
    return 2 < x_mu.ndim <= 26 and x_mu.dtype in (numpy.float32, numpy.float64)


def _sum_of_products(a, b, axis):
    """`(a * b).sum(axis)` without the full-size product (einsum) where dtypes agree."""
    if a.dtype != b.dtype or a.ndim > 26:
        return (a * b).sum(axis=axis)
    xp = backend.get_array_module(a)
    letters = 'abcdefghijklmnopqrstuvwxyz'[:a.ndim]
    out = ''.join(letters[i] for i in range(a.ndim) if i not in axis)
    return xp.einsum('{0},{0}->{1}'.format(letters, out), a, b)


def _bn_grad_arrays(x, gamma, gy, axis, expander, mean, inv_std):
    """(gx, ggamma, gbeta) of batch normalization in its closed form.

    `gx = gamma / std * (gy - (x_hat * ggamma + gbeta) / m)`, computed in one
    full-size buffer (x - mean, then gx, in place).
    """
    xp = backend.get_array_module(x)
    interm_dtype = numpy.promote_types(x.dtype, gamma.dtype)
    m = x.size // gamma.size
    inv_std_e = inv_std[expander]
    if x.ndim <= 2:
        return _bn_grad_arrays_exact(x, gamma, gy, axis, expander, mean, inv_std_e, m)
    gbeta = gy.sum(axis=axis, dtype=interm_dtype)
    buf = xp.subtract(x, mean[expander], dtype=interm_dtype)   # x - mean
    # x_hat = (x - mean) * inv_std is never written out: inv_std is folded into the
    # per-channel factors (ggamma = inv_std * sum(gy * (x - mean)))
    ggamma = _sum_of_products(gy, buf, axis).astype(interm_dtype, copy=False)
    ggamma *= inv_std
    inv_m = interm_dtype.type(1. / m)
    buf *= (ggamma * inv_std * inv_m)[expander]        # x_hat * ggamma / m
    buf += (gbeta * inv_m)[expander]
    xp.subtract(gy, buf, out=buf, casting='unsafe')
    buf *= gamma.astype(interm_dtype, copy=False)[expander] * inv_std_e
    return (buf.astype(x.dtype, copy=False), ggamma.astype(gamma.dtype, copy=False),
            gbeta.astype(gamma.dtype, copy=False))


def _bn_grad_arrays_exact(x, gamma, gy, axis, expander, mean, inv_std_e, m):
    """(gx, ggamma, gbeta) rounded as Chainer 7's CPU backward rounds them (used for
    (batch, units) inputs, where the statistics are bit-equal to Chainer's too)."""
    x_hat = _x_hat(x, mean[expander], inv_std_e)
    gbeta = gy.sum(axis=axis, dtype=gamma.dtype)
    ggamma = (gy * x_hat).sum(axis=axis, dtype=gamma.dtype)
    inv_m = gamma.dtype.type(1. / m)
    x_hat *= ggamma[expander]
    x_hat += gbeta[expander]
    x_hat *= inv_m
    gx = (gamma[expander] * inv_std_e) * (gy - x_hat)
    return gx.astype(x.dtype, copy=False), ggamma, gbeta


def eps_of(eps, dtype):
    return numpy.dtype(dtype).type(eps)


class BatchNormalizationGrad(function_node.FunctionNode):
    """Gradient of
    [`batch_normalization`][minichainer.functions.normalization.batch_normalization.batch_normalization]
    (inputs `(x, gamma, gy)`).

    Outputs `(gx, ggamma, gbeta)`; its backward gives the second-order gradients.
    """

    def __init__(self, eps, expander, axis, mean, inv_std, key_axis):
        self.eps = eps
        self.expander = expander
        self.axis = axis
        self.mean = mean
        self.inv_std = inv_std
        self.key_axis = key_axis

    def forward(self, inputs):
        self.retain_inputs((0, 1, 2))
        x, gamma, gy = inputs
        expander = self.expander
        interm_dtype = numpy.promote_types(x.dtype, gamma.dtype)
        m = x.size // gamma.size
        gbeta = gy.sum(axis=self.axis, dtype=interm_dtype)
        x_hat = _x_hat(x, self.mean[expander], self.inv_std[expander])
        ggamma = (gy * x_hat).sum(axis=self.axis, dtype=interm_dtype)
        gx = (gamma * self.inv_std)[expander] * (
            gy - (x_hat * ggamma[expander] + gbeta[expander]) / m)
        gx = gx.astype(x.dtype, copy=False)
        ggamma = ggamma.astype(gamma.dtype, copy=False)
        gbeta = gbeta.astype(gamma.dtype, copy=False)
        self.retain_outputs((0, 1))
        return gx, ggamma, gbeta

    def backward(self, indexes, grad_outputs):
        x, gamma, gy = self.get_retained_inputs()
        gx1, ggamma1 = self.get_retained_outputs()
        ggx1, gggamma1, ggbeta1 = grad_outputs
        xp = backend.get_array_module(x.array)
        axis = self.axis
        shape = _param_shape(x.shape, self.key_axis)

        def e(v):
            return reshape(v, shape)

        gamma_dtype = gamma.dtype
        gy_dtype = gy.dtype
        dtype = x.dtype
        if gamma.dtype != dtype:
            gamma = cast(gamma, dtype)
            ggamma1 = cast(ggamma1, dtype)
            if gggamma1 is not None:
                gggamma1 = cast(gggamma1, dtype)
            if ggbeta1 is not None:
                ggbeta1 = cast(ggbeta1, dtype)
        if gy.dtype != dtype:
            gy = cast(gy, dtype)
        if ggx1 is not None and ggx1.dtype != dtype:
            ggx1 = cast(ggx1, dtype)
        if gx1.dtype != dtype:
            gx1 = cast(gx1, dtype)
        inv_std = self.inv_std.astype(dtype, copy=False)
        mean = self.mean.astype(dtype, copy=False)
        inv_m = dtype.type(1. / (x.size // gamma.size))
        if ggx1 is None:
            ggx1 = xp.zeros(x.shape, dtype)
            r = xp.zeros(gamma.shape, dtype)
        else:
            r = _sum(gx1 * ggx1, axis=axis)
        if gggamma1 is None:
            gggamma1 = xp.zeros(gamma.shape, dtype)
        if ggbeta1 is None:
            ggbeta1 = xp.zeros(gamma.shape, dtype)
        coeff = gamma * inv_std
        coeff_m = coeff * inv_m
        x_hat = (x - mean.reshape(shape)) * inv_std.reshape(shape)

        gggamma2 = gggamma1 - coeff_m * _sum(x_hat * ggx1, axis=axis)
        ggbeta2 = ggbeta1 - coeff_m * _sum(ggx1, axis=axis)
        ret = []
        if 0 in indexes or 1 in indexes:
            gx_hat2 = e(gggamma2) * gy - e(coeff_m * ggamma1) * ggx1
        if 0 in indexes:
            gstd2 = -inv_std * (r + _sum(x_hat * gx_hat2, axis=axis))
            gmean2 = -inv_std * _sum(gx_hat2, axis=axis)
            gx2 = inv_std.reshape(shape) * gx_hat2 + inv_m * (e(gmean2) + x_hat * e(gstd2))
            ret.append(gx2)
        if 1 in indexes:
            # gx1 is proportional to gamma, so d<gx1, ggx1>/dgamma = r / gamma
            ggamma2 = r / gamma
            if ggamma2.dtype != gamma_dtype:
                ggamma2 = cast(ggamma2, gamma_dtype)
            ret.append(ggamma2)
        if 2 in indexes:
            ggy2 = e(gggamma2) * x_hat + e(ggbeta2) + e(coeff) * ggx1
            if ggy2.dtype != gy_dtype:
                ggy2 = cast(ggy2, gy_dtype)
            ret.append(ggy2)
        return ret


class FixedBatchNormalization(function_node.FunctionNode):
    """FunctionNode of
    [`fixed_batch_normalization`][minichainer.functions.normalization.batch_normalization.fixed_batch_normalization]
    (given mean and var)."""

    inv_std = None
    inv_var = None

    def __init__(self, eps=2e-5, axis=None):
        self.eps = eps
        if isinstance(axis, int):
            axis = axis,
        self.axis = axis

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 5)
        type_check.argname(in_types, ('x', 'gamma', 'beta', 'mean', 'var'))
        x_type, gamma_type, beta_type, mean_type, var_type = in_types
        _check_bn_types(in_types, self.axis)
        type_check.expect(
            mean_type.dtype == gamma_type.dtype,
            mean_type.shape == gamma_type.shape,
            var_type.dtype == gamma_type.dtype,
            var_type.shape == gamma_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1, 3, 4))
        x, gamma, beta, mean, var = inputs
        xp = backend.get_array_module(x)
        self.axis = _compute_axis(x.ndim, gamma.ndim, self.axis)
        self.key_axis = _compute_key_axis(x.ndim, gamma.ndim, self.axis)
        expander = _expander(x.ndim, self.key_axis)
        self.expander = expander
        dtype = var.dtype
        self.inv_std = xp.reciprocal(xp.sqrt(var + dtype.type(self.eps), dtype=dtype))
        # y = (x - mean) * (gamma / std) + beta in one buffer
        interm_dtype = numpy.promote_types(x.dtype, gamma.dtype)
        y = xp.subtract(x, mean[expander], dtype=interm_dtype)
        y *= (gamma * self.inv_std)[expander]
        y += beta[expander]
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes, grad_outputs):
        x, gamma, mean, var = self.get_retained_inputs()
        gy, = grad_outputs
        if not _fast.needs_graph():
            return _fixed_bn_grad_arrays(
                indexes, x.array, gamma.array, mean.array, var.array, gy.array,
                self.axis, self.expander, self.inv_std)
        outs = _fixed_bn_grad_graph(x, gamma, mean, var, gy, self.axis, self.key_axis,
                                    self.eps)
        return [outs[i] for i in indexes]


def _fixed_bn_grad_arrays(indexes, x, gamma, mean, var, gy, axis, expander, inv_std):
    """Gradients of fixed batch normalization for `indexes`, without a graph."""
    xp = backend.get_array_module(x)
    dtype = numpy.promote_types(x.dtype, gamma.dtype)
    gamma_over_std = (gamma * inv_std).astype(dtype, copy=False)
    ret = []
    gbeta = ggamma = None
    if 2 in indexes or 3 in indexes:
        gbeta = gy.sum(axis=axis, dtype=dtype)
    if 1 in indexes or 4 in indexes:
        x_mu = xp.subtract(x, mean[expander], dtype=dtype)
        ggamma = _sum_of_products(x_mu, gy.astype(dtype, copy=False), axis)
        ggamma *= inv_std.astype(dtype, copy=False)
    for i in indexes:
        if i == 0:
            gx = xp.multiply(gy, gamma_over_std[expander], dtype=dtype)
            g = gx.astype(x.dtype, copy=False)
        elif i == 1:
            g = ggamma.astype(gamma.dtype, copy=False)
        elif i == 2:
            g = gbeta.astype(gamma.dtype, copy=False)
        elif i == 3:
            g = (-gamma_over_std * gbeta).astype(gamma.dtype, copy=False)
        elif i == 4:
            inv_var = (inv_std * inv_std).astype(dtype, copy=False)
            g = (dtype.type(-0.5) * gamma * inv_var * ggamma).astype(gamma.dtype,
                                                                   copy=False)
        else:
            g = None
        ret.append(None if g is None else _fast.as_grad(g))
    return ret


def _fixed_bn_grad_graph(x, gamma, mean, var, gy, axis, key_axis, eps):
    """(gx, ggamma, gbeta, gmean, gvar) of fixed batch normalization, differentiably."""
    shape = _param_shape(x.shape, key_axis)
    x_dtype = x.dtype
    p_dtype = gamma.dtype
    dtype = numpy.promote_types(x_dtype, p_dtype)

    def to(v, dt):
        return v if v.dtype == dt else cast(v, dt)

    x, gy = to(x, dtype), to(gy, dtype)
    gamma, mean, var = to(gamma, dtype), to(mean, dtype), to(var, dtype)

    def expand(v):
        return broadcast_to(reshape(v, shape), x.shape)

    inv_var = (var + dtype.type(eps)) ** -1
    inv_std = inv_var ** 0.5
    gamma_over_std = gamma * inv_std
    x_hat = (x - expand(mean)) * expand(inv_std)
    gx = expand(gamma_over_std) * gy
    gbeta = _sum(gy, axis=axis)
    ggamma = _sum(x_hat * gy, axis=axis)
    gmean = -gamma_over_std * gbeta
    gvar = -0.5 * gamma * inv_var * ggamma
    return (to(gx, x_dtype), to(ggamma, p_dtype), to(gbeta, p_dtype), to(gmean, p_dtype),
            to(gvar, p_dtype))


def batch_normalization(x, gamma, beta, **kwargs):
    """batch_normalization(x, gamma, beta, eps=2e-5, running_mean=None, \
running_var=None, decay=0.9, axis=None)

    Batch normalization with the statistics of the mini-batch:
    ``y = gamma * (x - mean) / sqrt(var + eps) + beta``.

    Args:
        x (Variable or ndarray): input; statistics are taken over ``axis`` (by
            default the first axis and the axes after gamma's).
        gamma, beta (Variable or ndarray): scale and shift.
        eps (float): added to the variance.
        running_mean, running_var (ndarray or None): running statistics updated in
            place as ``r = decay * r + (1 - decay) * stat`` (unbiased variance).
        decay (float): decay rate of the running statistics.
        axis (int, tuple of int or None): axes to normalize over.

    Raises:
        ValueError: for the removed ``train`` argument.
    """
    eps, running_mean, running_var, decay, axis = argument.parse_kwargs(
        kwargs, ('eps', 2e-5), ('running_mean', None), ('running_var', None),
        ('decay', 0.9), ('axis', None),
        train='train argument is not supported anymore. '
        'Use chainer.using_config')
    node = BatchNormalization(eps, running_mean, running_var, decay, axis)
    layout = _memory_layout(x)
    if layout is not None:
        return node.apply((x.as_layout(None), gamma, beta))[0].as_layout(layout)
    return node.apply((x, gamma, beta))[0]


def fixed_batch_normalization(x, gamma, beta, mean, var, eps=2e-5, axis=None):
    """Batch normalization with fixed statistics `mean` and `var` (test mode)."""
    node = FixedBatchNormalization(eps, axis)
    layout = _memory_layout(x)
    if layout is not None:
        return node.apply((x.as_layout(None), gamma, beta, mean, var))[0].as_layout(layout)
    return node.apply((x, gamma, beta, mean, var))[0]


def _memory_layout(x):
    # As Chainer's, both functions take `x` in a non-standard memory layout (a channel-last
    # Variable, minichainer.memory_layouts) and give `y` in it: here through AsLayout nodes
    # on both sides, so the gradient follows the same way back.
    return x.layout if isinstance(x, Variable) else None
