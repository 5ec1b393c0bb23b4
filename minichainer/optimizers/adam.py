"""Adam and its variants AdamW, AMSGrad, AdaBound and AMSBound."""
import math
import warnings

import numpy

from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.alpha = 0.001
_default_hyperparam.beta1 = 0.9
_default_hyperparam.beta2 = 0.999
_default_hyperparam.eps = 1e-8
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0
_default_hyperparam.amsgrad = False
_default_hyperparam.adabound = False
_default_hyperparam.final_lr = 0.1
_default_hyperparam.gamma = 1e-3


def _learning_rate(hp, t):
    """Bias-corrected step size `alpha * sqrt(1 - beta2**t) / (1 - beta1**t)`."""
    if t == 0:
        raise RuntimeError(
            "Can't determine the learning rate of Adam optimizer "
            'because the update steps have not been started.')
    fix1 = 1. - math.pow(hp.beta1, t)
    fix2 = 1. - math.pow(hp.beta2, t)
    return hp.alpha * math.sqrt(fix2) / fix1


_FLOAT32 = numpy.dtype(numpy.float32)


def _get_intermediate_dtype(dtype):
    """The dtype Adam computes in: float32 for a float16 parameter, else its own."""
    if dtype.type is numpy.float16:
        return _FLOAT32
    return dtype


class AdamRule(optimizer.UpdateRule):
    """Update rule of Adam and its variants.

    `m += (1 - beta1) * (grad - m); v += (1 - beta2) * (grad**2 - v);
    vhat = max(vhat, v) if amsgrad else v; step = alpha_t / (sqrt(vhat) + eps)`
    (clipped into `bounds` with `adabound`), then
    `param -= eta * (step * m + weight_decay_rate * param)`, where `alpha_t` is the
    bias-corrected step size (Chainer >= 6.1 on CPU and GPU). State: `m`, `v` and,
    with `amsgrad`, `vhat`.

    The update is computed in place with one scratch buffer per parameter; it gives the
    same float32/float64 results as Chainer's CPU implementation.

    Args:
        parent_hyperparam (Hyperparameter): Default values.
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first order moment.
        beta2 (float): Exponential decay rate of the second order moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier, e.g. for warm restarts.
        weight_decay_rate (float): Decoupled weight decay rate (AdamW).
        amsgrad (bool): Use the AMSGrad variant.
        adabound (bool): Use the AdaBound variant.
        final_lr (float): Final (SGD) learning rate of AdaBound.
        gamma (float): Convergence speed of AdaBound's bound functions.
    """

    _checked_eps = None

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, alpha=None, beta1=None, beta2=None,
                 eps=None, eta=None, weight_decay_rate=None, amsgrad=None,
                 adabound=None, final_lr=None, gamma=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        hp = self.hyperparam
        _util.set_given_hyperparams(
            hp, type(self).__name__, alpha=alpha, beta1=beta1, beta2=beta2, eps=eps,
            eta=eta, weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
            adabound=adabound, final_lr=final_lr, gamma=gamma)
        if hp.adabound:
            self.initial_alpha = hp.alpha

    def init_state(self, param):
        _util.check_rule_hyperparams(self, ('beta1', 'beta2'))
        _util.zero_state(self, param, 'm', 'v')
        if self.hyperparam.amsgrad:
            _util.zero_state(self, param, 'vhat')

    def _check_eps(self, interm_dtype):
        hp = self.hyperparam
        eps = interm_dtype(hp.eps)
        if hp.eps != 0 and eps == 0:
            raise ValueError(
                'eps of Adam optimizer is too small for {} ({})'.format(
                    numpy.dtype(interm_dtype).name, hp.eps))

    _HP_NAMES = ('alpha', 'beta1', 'beta2', 'eps', 'eta', 'weight_decay_rate', 'amsgrad',
                 'adabound')

    def update_core_cpu(self, param):
        self._update_in_place(param, numpy)

    def update_core_gpu(self, param):
        self._update_in_place(param, backend.get_array_module(param.array))

    def _update_in_place(self, param, xp):
        # The formula, written once for every array module: the dispatcher
        # (`UpdateRule.update_core`) already told NumPy arrays from the others.
        grad = param.grad
        if grad is None:
            return
        data = param.array
        dtype = _get_intermediate_dtype(data.dtype)
        (alpha, beta1, beta2, eps, eta, weight_decay_rate, amsgrad,
         adabound) = self.hyperparam_values(self._HP_NAMES)
        if self._checked_eps != (eps, dtype):
            self._check_eps(dtype.type)
            self._checked_eps = (eps, dtype)
        t = self.t
        if t == 0:
            _learning_rate(self.hyperparam, t)  # raises
        alpha_t = alpha * math.sqrt(1. - math.pow(beta2, t)) / (1. - math.pow(beta1, t))
        state = self._state
        m = state['m']
        v = state['v']
        # A float16 parameter keeps float16 state but is updated through a float32
        # scratch buffer, every intermediate in float32 as in Chainer.
        mixed = dtype is not data.dtype
        if mixed:
            grad = grad.astype(dtype)
        tmp = self.get_scratch(param, dtype)
        # m += (1 - beta1) * (grad - m)
        xp.subtract(grad, m, out=tmp)
        tmp *= 1.0 - beta1
        m += tmp
        # v += (1 - beta2) * (grad * grad - v)
        xp.multiply(grad, grad, out=tmp)
        tmp -= v
        tmp *= 1.0 - beta2
        v += tmp
        if amsgrad:
            vhat = state['vhat']
            xp.maximum(vhat, v, out=vhat)
        else:
            vhat = v
        # step = alpha_t / (sqrt(vhat) + eps), optionally clipped
        if mixed:
            vhat = vhat.astype(dtype)
        xp.sqrt(vhat, out=tmp)
        tmp += eps
        xp.divide(alpha_t, tmp, out=tmp)
        if adabound:
            lower, upper = self.bounds
            xp.clip(tmp, lower, upper, out=tmp)
        tmp *= m
        # param -= eta * (step * m + weight_decay_rate * param), computed as
        # param = (1 - eta * weight_decay_rate) * param - eta * (step * m)
        if weight_decay_rate != 0:
            data *= 1.0 - eta * weight_decay_rate
        if eta != 1:
            tmp *= -eta
            data += tmp
        else:
            data -= tmp

    @property
    def alpha_t(self):
        """The bias-corrected step size at the current step `t`."""
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        """Deprecated alias of `alpha_t`."""
        warnings.warn(
            'AdamRule.lr has been renamed to AdamRule.alpha_t. '
            'Use of AdamRule.lr is deprecated in Chainer v6.', DeprecationWarning)
        return self.alpha_t

    @property
    def bounds(self):
        """AdaBound's `(lower, upper)` bounds of the step size at step `t`."""
        if self.t == 0:
            raise RuntimeError(
                "Can't determine the bounds of AdaBound optimizer "
                'because the update steps have not been started.')
        hp = self.hyperparam
        # follows changes of alpha (e.g. by learning-rate shift extensions)
        final_lr = hp.final_lr * hp.alpha / self.initial_alpha
        lower = final_lr * (1.0 - 1.0 / (hp.gamma * self.t + 1))
        upper = final_lr * (1.0 + 1.0 / (hp.gamma * self.t))
        return lower, upper


class Adam(_util.RuleMethod):
    """Adam optimizer (https://arxiv.org/abs/1412.6980v8).

    `weight_decay_rate` and `eta` give AdamW (decoupled weight decay), `amsgrad`
    AMSGrad, `adabound` AdaBound and both flags AMSBound. With the defaults it is plain
    Adam.

    Args:
        alpha (float): Coefficient of the learning rate.
        beta1 (float): Exponential decay rate of the first order moment.
        beta2 (float): Exponential decay rate of the second order moment.
        eps (float): Small value for numerical stability.
        eta (float): Schedule multiplier, e.g. for warm restarts.
        weight_decay_rate (float): Decoupled weight decay rate.
        amsgrad (bool): Use the AMSGrad variant.
        adabound (bool): Use the AdaBound variant.
        final_lr (float): Final (SGD) learning rate of AdaBound.
        gamma (float): Convergence speed of AdaBound's bound functions.
    """

    rule_class = AdamRule

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate,
                 amsgrad=_default_hyperparam.amsgrad,
                 adabound=_default_hyperparam.adabound,
                 final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate, amsgrad=amsgrad,
                         adabound=adabound, final_lr=final_lr, gamma=gamma)

    alpha = optimizer.HyperparameterProxy('alpha')
    beta1 = optimizer.HyperparameterProxy('beta1')
    beta2 = optimizer.HyperparameterProxy('beta2')
    eps = optimizer.HyperparameterProxy('eps')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')
    amsgrad = optimizer.HyperparameterProxy('amsgrad')
    adabound = optimizer.HyperparameterProxy('adabound')
    final_lr = optimizer.HyperparameterProxy('final_lr')
    gamma = optimizer.HyperparameterProxy('gamma')

    @property
    def alpha_t(self):
        """The bias-corrected step size `alpha * sqrt(1 - beta2**t) / (1 - beta1**t)`.

        Raises:
            RuntimeError: no update has been made yet (`t == 0`).
        """
        return _learning_rate(self.hyperparam, self.t)

    @property
    def lr(self):
        """Deprecated alias of [`alpha_t`][minichainer.optimizers.adam.Adam.alpha_t] (as in
        Chainer; read-only)."""
        warnings.warn(
            'Adam.lr has been renamed to AdamRule.alpha_t. '
            'Use of Adam.lr is deprecated in Chainer v6.', DeprecationWarning)
        return self.alpha_t


class AdamW(Adam):
    """AdamW: Adam with decoupled weight decay (https://openreview.net/forum?id=rk6qdGgCZ).

    Args:
        alpha, beta1, beta2, eps, eta, weight_decay_rate: As in
            [`Adam`][minichainer.optimizers.adam.Adam].
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         weight_decay_rate=weight_decay_rate)


class AMSGrad(Adam):
    """AMSGrad (https://openreview.net/forum?id=ryQu7f-RZ):
    [`Adam`][minichainer.optimizers.adam.Adam] with `amsgrad=True`.

    Args:
        alpha, beta1, beta2, eps, eta: As in [`Adam`][minichainer.optimizers.adam.Adam].
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=True)


class AdaBound(Adam):
    """AdaBound (https://openreview.net/forum?id=Bkg3g2R9FX):
    [`Adam`][minichainer.optimizers.adam.Adam] with `adabound=True`.

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: As in
            [`Adam`][minichainer.optimizers.adam.Adam].
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=False, adabound=True, final_lr=final_lr, gamma=gamma)


class AMSBound(Adam):
    """AMSBound: [`Adam`][minichainer.optimizers.adam.Adam] with `amsgrad=True` and `adabound=True`.

    Args:
        alpha, beta1, beta2, final_lr, gamma, eps, eta: As in
            [`Adam`][minichainer.optimizers.adam.Adam].
    """

    def __init__(self, alpha=_default_hyperparam.alpha, beta1=_default_hyperparam.beta1,
                 beta2=_default_hyperparam.beta2, final_lr=_default_hyperparam.final_lr,
                 gamma=_default_hyperparam.gamma, eps=_default_hyperparam.eps,
                 eta=_default_hyperparam.eta):
        super().__init__(alpha=alpha, beta1=beta1, beta2=beta2, eps=eps, eta=eta,
                         amsgrad=True, adabound=True, final_lr=final_lr, gamma=gamma)
