"""Nesterov's accelerated gradient."""
from minichainer import backend
from minichainer.optimizers import _momentum_base

_default_hyperparam = _momentum_base.default_hyperparam()


class NesterovAGRule(_momentum_base.MomentumRuleBase):
    """Update rule of Nesterov's accelerated gradient.

    ``v = momentum * v - lr * grad;
    param += momentum**2 * v - (1 + momentum) * lr * grad``. State: ``v``.

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
        lr, momentum = self.hyperparam.lr, self.hyperparam.momentum
        v = self.state['v']
        tmp = self._get_scratch(param)
        xp = backend.get_array_module(grad)
        data = param.array
        v *= momentum
        xp.multiply(grad, lr, out=tmp)
        v -= tmp
        xp.multiply(v, momentum * momentum, out=tmp)
        data += tmp
        xp.multiply(grad, (1 + momentum) * lr, out=tmp)
        data -= tmp

    update_core_gpu = update_core_cpu


class NesterovAG(_momentum_base.MomentumMethodBase):
    """Nesterov's accelerated gradient (https://arxiv.org/abs/1212.0901).

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    _rule_class = NesterovAGRule
