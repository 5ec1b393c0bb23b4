"""Classical momentum SGD."""
from minichainer.optimizers import _momentum_base

_default_hyperparam = _momentum_base.default_hyperparam()


class MomentumSGDRule(_momentum_base.MomentumRuleBase):
    """Update rule of momentum SGD: `v = momentum * v - lr * grad; param += v`.

    State: `v`.
    Takes the arguments of `MomentumRuleBase`: `parent_hyperparam`, `lr`, `momentum`.
    """

    _default_hyperparam = _default_hyperparam

    @staticmethod
    def _update(xp, data, grad, v, tmp, lr, momentum):
        v *= momentum
        xp.multiply(grad, lr, out=tmp)
        v -= tmp
        xp.add(data, v, out=data)


class MomentumSGD(_momentum_base.MomentumMethodBase):
    """Momentum SGD optimizer.

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    rule_class = MomentumSGDRule
