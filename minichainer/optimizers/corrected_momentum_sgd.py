"""Momentum SGD with momentum correction (Goyal et al., eq. 9)."""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.01
_default_hyperparam.momentum = 0.9


class CorrectedMomentumSGDRule(optimizer.UpdateRule):
    """Update rule: ``v = momentum * v - grad; param += lr * v``.

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
        v -= grad
        xp.multiply(v, hp.lr, out=tmp)
        data = param.array
        xp.add(data, tmp, out=data)

    update_core_gpu = update_core_cpu


class CorrectedMomentumSGD(optimizer.GradientMethod):
    """Momentum SGD with momentum correction.

    Implements equation (9) of `Accurate, Large Minibatch SGD: Training ImageNet in 1 Hour
    <https://arxiv.org/abs/1706.02677>`_, which stays correct when the learning rate
    changes during training (:class:`MomentumSGD` implements equation (10)).

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
        return CorrectedMomentumSGDRule(self.hyperparam)
