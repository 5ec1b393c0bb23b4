"""Nesterov's accelerated gradient."""
from minichainer.optimizers import _momentum_base

_default_hyperparam = _momentum_base.default_hyperparam()


class NesterovAGRule(_momentum_base.MomentumRuleBase):
    """Update rule of Nesterov's accelerated gradient.

    `v = momentum * v - lr * grad;
    param += momentum**2 * v - (1 + momentum) * lr * grad`. State: `v`.
    Takes the arguments of `MomentumRuleBase`: `parent_hyperparam`, `lr`, `momentum`.
    """

    _default_hyperparam = _default_hyperparam

    @staticmethod
    def _update(xp, data, grad, v, tmp, lr, momentum):
        v *= momentum
        xp.multiply(grad, lr, out=tmp)
        v -= tmp
        xp.multiply(v, momentum * momentum, out=tmp)
        data += tmp
        xp.multiply(grad, (1 + momentum) * lr, out=tmp)
        data -= tmp


class NesterovAG(_momentum_base.MomentumMethodBase):
    """Nesterov's accelerated gradient (https://arxiv.org/abs/1212.0901).

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    rule_class = NesterovAGRule
