"""Vanilla stochastic gradient descent."""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01


class SGDRule(optimizer.UpdateRule):
    """Update rule of vanilla SGD: `param -= lr * grad`.

    Args:
        parent_hyperparam (Hyperparameter): Default values.
        lr (float): Learning rate.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given_hyperparams(self.hyperparam, type(self).__name__, lr=lr)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        tmp = self.get_scratch(param)
        xp = backend.get_array_module(grad)
        xp.multiply(grad, self.hyperparam.lr, out=tmp)
        data = param.array
        xp.subtract(data, tmp, out=data)

    update_core_gpu = update_core_cpu


class SGD(_util.RuleMethod):
    """Vanilla stochastic gradient descent.

    Args:
        lr (float): Learning rate.
    """

    rule_class = SGDRule

    def __init__(self, lr=_default_hyperparam.lr):
        super().__init__(lr=lr)

    lr = optimizer.HyperparameterProxy('lr')
