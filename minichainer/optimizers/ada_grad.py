"""AdaGrad."""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.001
_default_hyperparam.eps = 1e-8


class AdaGradRule(optimizer.UpdateRule):
    """Update rule of AdaGrad: `h += grad**2; param -= lr * grad / (sqrt(h) + eps)`.

    State: `h`. Uses one two-slot scratch buffer to keep Chainer's rounding.

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
        _util.zero_state(self, param, 'h')

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        h = self.state['h']
        t0, t1 = self.get_scratch(param, n=2)
        xp = backend.get_array_module(grad)
        xp.multiply(grad, grad, out=t0)
        h += t0
        xp.multiply(grad, hp.lr, out=t0)
        xp.sqrt(h, out=t1)
        t1 += hp.eps
        t0 /= t1
        data = param.array
        data -= t0

    update_core_gpu = update_core_cpu


class AdaGrad(_util.RuleMethod):
    """AdaGrad optimizer (http://jmlr.org/papers/v12/duchi11a.html).

    Args:
        lr (float): Learning rate.
        eps (float): Small value for numerical stability.
    """

    rule_class = AdaGradRule

    def __init__(self, lr=_default_hyperparam.lr, eps=_default_hyperparam.eps):
        super().__init__(lr=lr, eps=eps)

    lr = optimizer.HyperparameterProxy('lr')
    eps = optimizer.HyperparameterProxy('eps')
