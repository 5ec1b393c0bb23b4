"""Zeiler's ADADELTA."""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.rho = 0.95
_default_hyperparam.eps = 1e-6


class AdaDeltaRule(optimizer.UpdateRule):
    """Update rule of ADADELTA.

    `msg = rho * msg + (1 - rho) * grad**2;
    dx = sqrt((msdx + eps) / (msg + eps)) * grad;
    msdx = rho * msdx + (1 - rho) * dx**2; param -= dx`. State: `msg`, `msdx`.
    Uses one two-slot scratch buffer.

    Args:
        parent_hyperparam (Hyperparameter): Default values.
        rho (float): Exponential decay rate of the first and second order moments.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, rho=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given_hyperparams(
            self.hyperparam, type(self).__name__, rho=rho, eps=eps)

    def init_state(self, param):
        _util.check_rule_hyperparams(self, ('rho',))
        _util.zero_state(self, param, 'msg', 'msdx')

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        msg, msdx = self.state['msg'], self.state['msdx']
        rho = self.hyperparam.rho
        eps = self.hyperparam.eps
        t0, t1 = self.get_scratch(param, n=2)
        xp = backend.get_array_module(grad)

        msg *= rho
        xp.multiply(grad, 1 - rho, out=t0)
        t0 *= grad
        msg += t0
        xp.add(msdx, eps, out=t0)
        xp.add(msg, eps, out=t1)
        t0 /= t1
        xp.sqrt(t0, out=t0)
        t0 *= grad                      # t0 = dx
        msdx *= rho
        xp.multiply(t0, 1 - rho, out=t1)
        t1 *= t0
        msdx += t1
        data = param.array
        data -= t0

    update_core_gpu = update_core_cpu


class AdaDelta(_util.RuleMethod):
    """Zeiler's ADADELTA (http://www.matthewzeiler.com/pubs/googleTR2012/googleTR2012.pdf).

    Args:
        rho (float): Exponential decay rate of the first and second order moments.
        eps (float): Small value for numerical stability.
    """

    rule_class = AdaDeltaRule

    def __init__(self, rho=_default_hyperparam.rho, eps=_default_hyperparam.eps):
        super().__init__(rho=rho, eps=eps)

    rho = optimizer.HyperparameterProxy('rho')
    eps = optimizer.HyperparameterProxy('eps')
