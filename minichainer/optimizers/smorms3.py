"""Simon Funk's SMORMS3."""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-16


class SMORMS3Rule(optimizer.UpdateRule):
    """Update rule of SMORMS3.

    `r = 1 / (mem + 1); g = (1 - r) * g + r * grad; g2 = (1 - r) * g2 + r * grad**2;
    x = g**2 / (g2 + eps); param -= grad * min(x, lr) / (sqrt(g2) + eps);
    mem = 1 + mem * (1 - x)`. State: `mem`, `g`, `g2` (updated in place, where
    Chainer rebinds them). Uses one two-slot scratch buffer.

    Args:
        parent_hyperparam (Hyperparameter): Default values.
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, eps=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given_hyperparams(self.hyperparam, type(self).__name__, lr=lr, eps=eps)

    def init_state(self, param):
        xp = backend.get_array_module(param.array)
        self.state['mem'] = xp.ones_like(param.array)
        self.state['g'] = xp.zeros_like(param.array)
        self.state['g2'] = xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        mem, g, g2 = self.state['mem'], self.state['g'], self.state['g2']
        lr, eps = self.hyperparam.lr, self.hyperparam.eps
        t0, t1 = self.get_scratch(param, n=2)
        xp = backend.get_array_module(grad)

        xp.add(mem, 1, out=t0)
        xp.divide(1, t0, out=t0)          # r
        xp.subtract(1, t0, out=t1)        # 1 - r
        g *= t1
        g2 *= t1
        xp.multiply(t0, grad, out=t1)     # r * grad
        g += t1
        t1 *= grad                        # r * grad * grad
        g2 += t1
        xp.multiply(g, g, out=t0)
        xp.add(g2, eps, out=t1)
        t0 /= t1                          # x
        xp.minimum(t0, lr, out=t1)
        xp.multiply(grad, t1, out=t1)     # grad * min(x, lr)
        xp.subtract(1, t0, out=t0)        # 1 - x
        mem *= t0
        mem += 1
        xp.sqrt(g2, out=t0)
        t0 += eps
        t1 /= t0
        data = param.array
        data -= t1

    update_core_gpu = update_core_cpu


class SMORMS3(_util.RuleMethod):
    """Simon Funk's SMORMS3 (http://sifter.org/~simon/journal/20150420.html).

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    rule_class = SMORMS3Rule

    def __init__(self, lr=_default_hyperparam.lr, eps=_default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')
