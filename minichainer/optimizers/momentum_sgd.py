"""Classical momentum SGD."""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class MomentumSGDRule(optimizer.UpdateRule):
    """Update rule of momentum SGD: ``v = momentum * v - lr * grad; param += v``.

    State: ``v``.

    Args:
        parent_hyperparam (~minichainer.optimizer.Hyperparameter): Default values.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given_hyperparams(self.hyperparam, lr=lr, momentum=momentum)

    def init_state(self, param):
        xp = backend.get_array_module(param.array)
        self.state['v'] = xp.zeros_like(param.array)

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        v = self.state['v']
        tmp = self._get_scratch(param)
        xp = backend.get_array_module(grad)
        v *= hp.momentum
        xp.multiply(grad, hp.lr, out=tmp)
        v -= tmp
        data = param.array
        xp.add(data, v, out=data)

    update_core_gpu = update_core_cpu


class MomentumSGD(optimizer.GradientMethod):
    """Momentum SGD optimizer.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    def __init__(self, lr=_default_hyperparam.lr, momentum=_default_hyperparam.momentum):
        super().__init__()
        _util.set_hyperparams(self.hyperparam, lr=lr, momentum=momentum)

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')

    def create_update_rule(self):
        return MomentumSGDRule(self.hyperparam)
