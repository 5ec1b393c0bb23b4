"""M-SVAG optimizer."""
import contextlib

import numpy

from minichainer import backend
from minichainer import optimizer
from minichainer.optimizers import _util

_default_hyperparam = optimizer.Hyperparameter()
_default_hyperparam.lr = 0.1
_default_hyperparam.beta = 0.9
_default_hyperparam.eta = 1.0
_default_hyperparam.weight_decay_rate = 0


class MSVAGRule(optimizer.UpdateRule):
    """Update rule of M-SVAG (https://arxiv.org/abs/1705.07774), with decoupled weight
    decay. State: `m`, `v`.

    Unlike the other rules this one allocates temporaries at each step (it is rarely
    used); `beta_power` is not serialized, as in Chainer.

    Args:
        parent_hyperparam (Hyperparameter): Default values.
        lr (float): Learning rate.
        beta (float): Decay rate of the first and second order moments.
        eta (float): Schedule multiplier.
        weight_decay_rate (float): Weight decay rate.
    """

    is_elementwise = True

    def __init__(self, parent_hyperparam=None, lr=None, beta=None, eta=None,
                 weight_decay_rate=None):
        super().__init__(parent_hyperparam or _default_hyperparam)
        _util.set_given_hyperparams(
            self.hyperparam, type(self).__name__, lr=lr, beta=beta, eta=eta,
            weight_decay_rate=weight_decay_rate)
        self.beta_power = self.hyperparam.beta

    def init_state(self, param):
        _util.check_rule_hyperparams(self, ('beta',))
        _util.zero_state(self, param, 'm', 'v')

    def update_core_cpu(self, param):
        grad = param.grad
        if grad is None:
            return
        hp = self.hyperparam
        xp = backend.get_array_module(grad)
        m, v = self.state['m'], self.state['v']
        bp = self.beta_power
        rho = (((1.0 - hp.beta) ** 2) * (1.0 - bp ** 2)
               / (((1.0 - bp) ** 2) * (1.0 - hp.beta ** 2)))
        rho = min(rho, 0.9999)
        m += (1 - hp.beta) * (grad - m)
        v += (1 - hp.beta) * (grad * grad - v)
        mt = m / (1 - bp)
        vt = v / (1 - bp)
        mt2 = mt ** 2
        s = (vt - mt2) / (1 - rho)
        with _ignore_invalid(xp):
            factor = xp.clip(mt2 / (mt2 + rho * s), 0, 1)
        factor = xp.where(xp.isnan(factor), 0, factor)
        data = param.array
        data -= hp.eta * (hp.lr * mt * factor + hp.weight_decay_rate * data)
        self.beta_power *= hp.beta

    update_core_gpu = update_core_cpu


def _ignore_invalid(xp):
    # CuPy has no errstate (it never warns on 0/0): only NumPy needs silencing
    if xp is numpy:
        return numpy.errstate(invalid='ignore', divide='ignore')
    return contextlib.nullcontext()


class MSVAG(_util.RuleMethod):
    """M-SVAG optimizer (https://arxiv.org/abs/1705.07774).

    Args:
        lr (float): Learning rate.
        beta (float): Decay rate of the first and second order moments.
        eta (float): Schedule multiplier.
        weight_decay_rate (float): Weight decay rate.
    """

    rule_class = MSVAGRule

    def __init__(self, lr=_default_hyperparam.lr, beta=_default_hyperparam.beta,
                 eta=_default_hyperparam.eta,
                 weight_decay_rate=_default_hyperparam.weight_decay_rate):
        super().__init__(lr=lr, beta=beta, eta=eta, weight_decay_rate=weight_decay_rate)

    lr = optimizer.HyperparameterProxy('lr')
    beta = optimizer.HyperparameterProxy('beta')
    eta = optimizer.HyperparameterProxy('eta')
    weight_decay_rate = optimizer.HyperparameterProxy('weight_decay_rate')
