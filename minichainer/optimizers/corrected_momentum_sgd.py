"""Momentum SGD with momentum correction (Goyal et al., eq. 9)."""
from minichainer.optimizers import _momentum_base

_default_hyperparam = _momentum_base.default_hyperparam()


class CorrectedMomentumSGDRule(_momentum_base.MomentumRuleBase):
    """Update rule: `v = momentum * v - grad; param += lr * v`.

    State: `v`.
    Takes the arguments of `MomentumRuleBase`: `parent_hyperparam`, `lr`, `momentum`.
    """

    _default_hyperparam = _default_hyperparam

    @staticmethod
    def _update(xp, data, grad, v, tmp, lr, momentum):
        v *= momentum
        v -= grad
        xp.multiply(v, lr, out=tmp)
        xp.add(data, tmp, out=data)


class CorrectedMomentumSGD(_momentum_base.MomentumMethodBase):
    """Momentum SGD with momentum correction.

    Implements equation (9) of
    [Accurate, Large Minibatch SGD: Training ImageNet in 1 Hour](https://arxiv.org/abs/1706.02677),
    which stays correct when the learning rate changes during training
    ([`MomentumSGD`][minichainer.optimizers.momentum_sgd.MomentumSGD] implements equation (10)).

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    rule_class = CorrectedMomentumSGDRule
