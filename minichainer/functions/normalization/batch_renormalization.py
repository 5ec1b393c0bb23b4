"""Batch renormalization."""
import warnings

from minichainer import backend
from minichainer import configuration
from minichainer import function_node
from minichainer.functions.normalization.batch_normalization import _sum_of_products
from minichainer.utils import type_check
from minichainer.functions.normalization.batch_normalization import fixed_batch_normalization


def _xhat(x, mean, std, expander):
    x_mu = x - mean[expander]
    x_mu /= std[expander]
    return x_mu


class BatchRenormalizationFunction(function_node.FunctionNode):
    """FunctionNode of
    [`batch_renormalization`][minichainer.functions.normalization.batch_renormalization.batch_renormalization]
    (inputs `(x, gamma, beta)`).

    `r` and `d` are treated as constants in backward, as in the paper.
    Double backprop is not supported (Chainer's is an old-style Function).
    """

    def __init__(self, eps=2e-5, mean=None, var=None, decay=0.9, rmax=1, dmax=0,
                 update_statistics=True):
        self._running_mean = mean
        self._running_var = var
        self.rmax = rmax
        self.dmax = dmax
        self.r = None
        self.update_statistics = update_statistics
        self.eps = eps
        self.decay = decay

    def _warn_accessing_property(self):
        warnings.warn(
            'The attributes of BatchRenormalizationFunction are deprecated. '
            'Consider setting update_statistics=True to batch_renormalization to '
            'update running statistics.', DeprecationWarning)

    @property
    def running_mean(self):
        self._warn_accessing_property()
        return self._running_mean

    @property
    def running_var(self):
        self._warn_accessing_property()
        return self._running_var

    def check_type_forward(self, in_types):
        type_check.expect(in_types.size() == 3)
        type_check.argname(in_types, ('x', 'gamma', 'beta'))
        x_type, gamma_type, beta_type = in_types
        M = type_check.eval(gamma_type.ndim)
        type_check.expect(
            x_type.dtype.kind == 'f',
            x_type.ndim >= gamma_type.ndim + 1,
            x_type.shape[1:1 + M] == gamma_type.shape,
            gamma_type.dtype.kind == 'f',
            gamma_type.dtype == beta_type.dtype,
            gamma_type.shape == beta_type.shape,
        )

    def forward(self, inputs):
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(*inputs)
        x, gamma, beta = inputs
        head_ndim = gamma.ndim + 1
        expander = (None, Ellipsis) + (None,) * (x.ndim - head_ndim)
        self._expander = expander
        axis = (0,) + tuple(range(head_ndim, x.ndim))
        self._axis = axis
        mean = x.mean(axis=axis, dtype=gamma.dtype)
        var = x.var(axis=axis, dtype=gamma.dtype)
        self.std = xp.sqrt(var + self.eps, dtype=var.dtype)
        running_sigma = xp.sqrt(self._running_var + self.eps,
                                dtype=self._running_mean.dtype)
        self.r = xp.clip(self.std / running_sigma, 1.0 / self.rmax, self.rmax)
        d = xp.clip((mean - self._running_mean) / running_sigma, -self.dmax, self.dmax)
        self.d = d
        self.x_hat = _xhat(x, mean, self.std, expander)
        # y = gamma * (x_hat * r + d) + beta, without keeping x_hat * r + d
        y = self.x_hat * (gamma * self.r)[expander]
        y += (gamma * d + beta)[expander]
        y = y.astype(x.dtype, copy=False)
        if self.update_statistics:
            m = x.size // gamma.size
            adjust = m / max(m - 1., 1.)  # unbiased estimation
            self._running_mean *= self.decay
            self._running_mean += (1 - self.decay) * mean
            self._running_var *= self.decay
            self._running_var += (1 - self.decay) * adjust * var
        return y,

    def backward(self, indexes, grad_outputs):
        x, gamma = self.get_retained_inputs()
        gy, = grad_outputs
        return _BatchRenormalizationGrad(self).apply((x, gamma, gy))


class _BatchRenormalizationGrad(function_node.FunctionNode):

    def __init__(self, f):
        self.f = f

    def forward(self, inputs):
        x, gamma, gy = inputs
        f = self.f
        expander = f._expander
        axis = f._axis
        m = gamma.dtype.type(x.size // gamma.size)
        gbeta = gy.sum(axis=axis, dtype=gamma.dtype)
        gsigma_batch = _sum_of_products(gy, f.x_hat, axis)
        # sum(gy * (x_hat * r + d)) = r * sum(gy * x_hat) + d * sum(gy)
        ggamma = (f.r * gsigma_batch + f.d * gbeta).astype(gamma.dtype, copy=False)
        gx = f.x_hat * (gsigma_batch / m)[expander]
        gx += (gbeta / m)[expander]
        xp = backend.get_array_module(gy)
        xp.subtract(gy, gx, out=gx, casting='unsafe')
        gx *= (f.r * gamma / f.std)[expander]
        return gx.astype(x.dtype, copy=False), ggamma, gbeta

    def backward(self, indexes, grad_outputs):
        raise NotImplementedError(
            'batch_renormalization does not support double backpropagation')


def batch_renormalization(x, gamma, beta, rmax, dmax, eps=2e-5, running_mean=None,
                          running_var=None, decay=0.9, update_statistics=False):
    """Batch renormalization (Ioffe, 2017).

    Normalizes with the mini-batch statistics corrected by
    `r = clip(sigma_B / sigma, 1 / rmax, rmax)` and
    `d = clip((mu_B - mu) / sigma, -dmax, dmax)` computed against the running
    statistics, which are updated in place only when `update_statistics` is True.

    Raises:
        TypeError: if `running_mean` or `running_var` is missing.
    """
    if running_mean is None:
        raise TypeError('running_mean is required')
    if running_var is None:
        raise TypeError('running_var is required')
    return BatchRenormalizationFunction(
        eps, running_mean, running_var, decay, rmax, dmax, update_statistics
    ).apply((x, gamma, beta))[0]


def fixed_batch_renormalization(x, gamma, beta, mean, var, eps=2e-5):
    """Deprecated alias of
    [`fixed_batch_normalization`][minichainer.functions.normalization.batch_normalization.fixed_batch_normalization]
    (warns)."""
    warnings.warn('fixed_batch_renormalization is deprecated. '
                  'Use fixed_batch_normalization instead.', DeprecationWarning)
    with configuration.using_config('train', False):
        return fixed_batch_normalization(x, gamma, beta, mean, var, eps)
