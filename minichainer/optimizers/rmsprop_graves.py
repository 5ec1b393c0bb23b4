"""Alex Graves's RMSprop."""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

# alpha is a decay rate here (Adam's alpha is a step size)
_RANGES = {'alpha': _util.UNIT_CLOSED}

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 1e-4
_default_hyperparam.alpha = 0.95
_default_hyperparam.momentum = 0.9
_default_hyperparam.eps = 1e-4


class RMSpropGravesRule(optimizer.UpdateRule):
    """Update rule of Graves's RMSprop.

    `n = alpha * n + (1 - alpha) * grad**2; g = alpha * g + (1 - alpha) * grad;
    delta = momentum * delta - lr * grad / sqrt(n - g**2 + eps); param += delta`.
    State: `n`, `g`, `delta`. Uses one two-slot scratch buffer.

    Args:
        parent_hyperparam (Hyperparameter): Default values.
        lr (float): Learning rate.
        alpha (float): Decay rate of the moments of the raw gradient.
        momentum (float): Decay rate of the adjusted gradient's first moment.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, momentum=None,
                 eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given_hyperparams(
            self.hyperparam, type(self).__name__, _ranges=_RANGES, lr=lr, alpha=alpha,
            momentum=momentum, eps=eps)

    def init_state(self, param):
        _util.check_rule_hyperparams(self, ('alpha', 'momentum'), _RANGES)
        _util.zero_state(self, param, 'n', 'g', 'delta')

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        n, g, delta = self.state['n'], self.state['g'], self.state['delta']
        hp = self.hyperparam
        t0, t1 = self.get_scratch(param, n=2)
        xp = backend.get_array_module(grad)

        n *= hp.alpha
        xp.multiply(grad, 1 - hp.alpha, out=t0)
        t0 *= grad
        n += t0
        g *= hp.alpha
        xp.multiply(grad, 1 - hp.alpha, out=t0)
        g += t0
        delta *= hp.momentum
        xp.multiply(g, g, out=t1)
        xp.subtract(n, t1, out=t1)
        t1 += hp.eps
        xp.sqrt(t1, out=t1)
        xp.multiply(grad, hp.lr, out=t0)
        t0 /= t1
        delta -= t0
        data = param.array
        data += delta

    update_core_gpu = update_core_cpu


class RMSpropGraves(_util.RuleMethod):
    """Alex Graves's RMSprop (https://arxiv.org/abs/1308.0850).

    Args:
        lr (float): Learning rate.
        alpha (float): Decay rate of the moments of the raw gradient.
        momentum (float): Decay rate of the adjusted gradient's first moment.
        eps (float): Small value for numerical stability.
    """

    rule_class = RMSpropGravesRule
    hyperparam_ranges = _RANGES

    def __init__(self, lr=_default_hyperparam.lr, alpha=_default_hyperparam.alpha,
                 momentum=_default_hyperparam.momentum, eps=_default_hyperparam.eps):
        super().__init__(lr=lr, alpha=alpha, momentum=momentum, eps=eps)

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    momentum = optimizer.HyperparameterProxy('momentum')
    eps = optimizer.HyperparameterProxy('eps')
