"""RMSprop."""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

# alpha is a decay rate here (Adam's alpha is a step size)
_RANGES = {'alpha': _util.UNIT_CLOSED}

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.alpha = 0.99
_default_hyperparam.eps = 1e-8
_default_hyperparam.eps_inside_sqrt = False


class RMSpropRule(optimizer.UpdateRule):
    """Update rule of RMSprop.

    `ms = alpha * ms + (1 - alpha) * grad**2; param -= lr * grad / (sqrt(ms) + eps)`
    (`sqrt(ms + eps)` when `eps_inside_sqrt`). State: `ms`. Uses one two-slot
    scratch buffer.

    Args:
        parent_hyperparam (Hyperparameter): Default values.
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the second order moment.
        eps (float): Small value for numerical stability.
        eps_inside_sqrt (bool): Put `eps` inside the square root.

    Raises:
        ValueError: (at update) `eps` underflows to 0 in the gradient's dtype.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, alpha=None, eps=None,
                 eps_inside_sqrt=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given_hyperparams(
            self.hyperparam, type(self).__name__, _ranges=_RANGES, lr=lr, alpha=alpha,
            eps=eps, eps_inside_sqrt=eps_inside_sqrt)

    def init_state(self, param):
        _util.check_rule_hyperparams(self, ('alpha',), _RANGES)
        _util.zero_state(self, param, 'ms')

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        eps = grad.dtype.type(hp.eps)
        if hp.eps != 0 and eps == 0:
            raise ValueError(
                'eps of RMSprop optimizer is too small for {} ({})'.format(
                    grad.dtype.name, hp.eps))
        ms = self.state['ms']
        t0, t1 = self.get_scratch(param, n=2)
        xp = backend.get_array_module(grad)

        ms *= hp.alpha
        xp.multiply(grad, 1 - hp.alpha, out=t0)
        t0 *= grad
        ms += t0
        if hp.eps_inside_sqrt:
            xp.add(ms, eps, out=t1)
            xp.sqrt(t1, out=t1)
        else:
            xp.sqrt(ms, out=t1)
            t1 += eps
        xp.multiply(grad, hp.lr, out=t0)
        t0 /= t1
        data = param.array
        data -= t0

    update_core_gpu = update_core_cpu


class RMSprop(_util.RuleMethod):
    """RMSprop optimizer (Tieleman and Hinton, 2012).

    Args:
        lr (float): Learning rate.
        alpha (float): Exponential decay rate of the second order moment.
        eps (float): Small value for numerical stability.
        eps_inside_sqrt (bool): Divide by `sqrt(ms + eps)` instead of
            `sqrt(ms) + eps`.
    """

    rule_class = RMSpropRule
    hyperparam_ranges = _RANGES

    def __init__(self, lr=_default_hyperparam.lr, alpha=_default_hyperparam.alpha,
                 eps=_default_hyperparam.eps,
                 eps_inside_sqrt=_default_hyperparam.eps_inside_sqrt):
        super().__init__(lr=lr, alpha=alpha, eps=eps, eps_inside_sqrt=eps_inside_sqrt)

    lr = optimizer.HyperparameterProxy('lr')
    alpha = optimizer.HyperparameterProxy('alpha')
    eps = optimizer.HyperparameterProxy('eps')
    eps_inside_sqrt = optimizer.HyperparameterProxy('eps_inside_sqrt')
