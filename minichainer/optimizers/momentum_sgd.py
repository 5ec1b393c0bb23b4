"""Classical momentum SGD."""
from minichainer import backend
from minichainer.optimizers import _momentum_base

_default_hyperparam = _momentum_base.default_hyperparam()


class MomentumSGDRule(_momentum_base.MomentumRuleBase):
    """Update rule of momentum SGD: ``v = momentum * v - lr * grad; param += v``.

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
        xp.multiply(grad, hp.lr, out=tmp)
        v -= tmp
        data = param.array
        xp.add(data, v, out=data)

    update_core_gpu = update_core_cpu


class MomentumSGD(_momentum_base.MomentumMethodBase):
    """Momentum SGD optimizer.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    _rule_class = MomentumSGDRule
