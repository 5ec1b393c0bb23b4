"""The shared part of the momentum family (MomentumSGD, CorrectedMomentumSGD, NesterovAG).

The three differ only in their update formula; their hyperparameters (`lr`,
`momentum`), defaults and state (a velocity `v`) are the same.
"""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

DEFAULT_LR = 0.01
DEFAULT_MOMENTUM = 0.9


def default_hyperparam():
    """Return a new Hyperparameter holding the family's defaults (a module's own copy)."""
    hyperparam = optimizer.Hyperparameter()
    hyperparam.lr = DEFAULT_LR
    hyperparam.momentum = DEFAULT_MOMENTUM
    return hyperparam


class MomentumRuleBase(optimizer.UpdateRule):
    """Update rule with hyperparameters `lr` and `momentum` and state `v`.

    Subclasses set `_default_hyperparam` and write their formula once in
    `_update(xp, data, grad, v, tmp, lr, momentum)`, in place (`tmp` is the rule's
    scratch buffer); `update_core_cpu`/`update_core_gpu` call it.

    Args:
        parent_hyperparam (Hyperparameter): Default values.
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    _default_hyperparam = None

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, momentum=None):
        super().__init__(parent_hyperparam or self._default_hyperparam)
        _util.set_given_hyperparams(
            self.hyperparam, type(self).__name__, lr=lr, momentum=momentum)

    def init_state(self, param):
        _util.check_rule_hyperparams(self, ('momentum',))
        _util.zero_state(self, param, 'v')

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        self._update(backend.get_array_module(grad), param.array, grad, self.state['v'],
                     self.get_scratch(param), hp.lr, hp.momentum)

    update_core_gpu = update_core_cpu

    @staticmethod
    def _update(xp, data, grad, v, tmp, lr, momentum):
        raise NotImplementedError


class MomentumMethodBase(_util.RuleMethod):
    """Gradient method with hyperparameters `lr` and `momentum`.

    Subclasses set `rule_class` (a `MomentumRuleBase` subclass).

    Args:
        lr (float): Learning rate.
        momentum (float): Exponential decay rate of the first order moment.
    """

    def __init__(self, lr=DEFAULT_LR, momentum=DEFAULT_MOMENTUM):
        super().__init__(lr=lr, momentum=momentum)

    lr = optimizer.HyperparameterProxy('lr')
    momentum = optimizer.HyperparameterProxy('momentum')
