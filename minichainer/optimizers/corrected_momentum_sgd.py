"""Momentum SGD with momentum correction (Goyal et al., eq. 9)."""
from minichainer import backend
from minichainer.optimizers import _momentum_base

_default_hyperparam = _momentum_base.default_hyperparam()


class CorrectedMomentumSGDRule(_momentum_base.MomentumRuleBase):
    """Update rule: ``v = momentum * v - grad; param += lr * v``.

    State: ``v``.

    Args:
        parent_hyperparam (~minichainer.optimizer.Hyperparameter): Default values.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    _default_hyperparam = _default_hyperparam

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


class CorrectedMomentumSGD(_momentum_base.MomentumMethodBase):
    """Momentum SGD with momentum correction.

    Implements equation (9) of `Accurate, Large Minibatch SGD: Training ImageNet in 1 Hour
    <https://arxiv.org/abs/1706.02677>`_, which stays correct when the learning rate
    changes during training (:class:`MomentumSGD` implements equation (10)).

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    _rule_class = CorrectedMomentumSGDRule
