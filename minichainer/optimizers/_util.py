"""Helpers shared by the update rules and optimizers of this package, including the
range checks of their hyperparameters.

Constructors check every hyperparameter's type and lower bound (a negative learning
rate, `eps <= 0`, a negative decay rate raise at once).  The upper end of a rate's
range (`beta1 < 1`, `rho <= 1`, ...) is checked when a rule prepares its first
update: Chainer's own tests construct every optimizer with each default plus 0.1
(`beta2=1.099`) and check that the value is stored.
"""
from minichainer import backend
from minichainer import optimizer
from minichainer.optimizer_hooks._checks import (  # noqa: F401
    NON_NEGATIVE, POSITIVE, UNIT_CLOSED, UNIT_OPEN, Range, real_value, check_range)

# The range of each hyperparameter name of the optimizers in this package.  ``alpha``
# is Adam's step size; RMSprop's and RMSpropGraves' ``alpha`` (a decay rate) is given
# its own range by those modules.
RANGES = {
    'lr': NON_NEGATIVE,
    'alpha': NON_NEGATIVE,
    'eps': POSITIVE,
    'eta': NON_NEGATIVE,
    'weight_decay_rate': NON_NEGATIVE,
    'final_lr': NON_NEGATIVE,
    'gamma': POSITIVE,
    'beta': UNIT_OPEN,
    'beta1': UNIT_OPEN,
    'beta2': UNIT_OPEN,
    'momentum': UNIT_CLOSED,
    'rho': UNIT_CLOSED,
}


def check_hyperparams(owner, ranges=None, lower_only=False, **values):
    """Check each of `values` that is not None and has a known range (`RANGES`,
    updated with `ranges`); see `check_range`."""
    table = RANGES if ranges is None else dict(RANGES, **ranges)
    for name, value in values.items():
        spec = table.get(name)
        if spec is not None and value is not None:
            check_range(owner, name, value, spec, lower_only=lower_only)


def check_rule_hyperparams(rule, names, ranges=None):
    """Check the current values of the hyperparameters `names` of an update rule
    against their full ranges (called by `init_state`, before the first update).
    Messages name the optimizer (`AdamRule` -> `Adam`)."""
    owner = type(rule).__name__
    if owner.endswith('Rule'):
        owner = owner[:-len('Rule')]
    hp = rule.hyperparam
    check_hyperparams(owner, ranges, **{name: getattr(hp, name, None) for name in names})


def set_given_hyperparams(hyperparam, _owner=None, _ranges=None, **values):
    """Set on `hyperparam` each of `values` that is not None (in the given order).

    Update rules use it for their keyword overrides: None keeps the parent's value.
    With `_owner` (the class name for messages) the values' types and lower bounds
    are checked first.
    """
    if _owner is not None:
        check_hyperparams(_owner, _ranges, lower_only=True, **values)
    for name, value in values.items():
        if value is not None:
            setattr(hyperparam, name, value)


def set_hyperparams(hyperparam, _owner=None, _ranges=None, **values):
    """Set every one of `values` on `hyperparam` (in the given order), with the
    checks of `set_given_hyperparams` when `_owner` is given."""
    if _owner is not None:
        check_hyperparams(_owner, _ranges, lower_only=True, **values)
    for name, value in values.items():
        setattr(hyperparam, name, value)


def zero_state(rule, param, *names):
    """Set the state arrays `names` of `rule` to zeros shaped like `param` on its device
    (the body of the rules' `init_state`, after their range checks)."""
    xp = backend.get_array_module(param.array)
    state = rule.state
    for name in names:
        state[name] = xp.zeros_like(param.array)


class RuleMethod(optimizer.GradientMethod):
    """The one body of this package's gradient methods.

    The constructor's arguments are hyperparameters: checked (types and lower bounds;
    `hyperparam_ranges` adds to `RANGES`) and set in the given order. Each parameter's
    update rule is `rule_class(self.hyperparam)`. Subclasses keep Chainer's explicit
    signature, call `super().__init__(name=value, ...)` and declare their
    `HyperparameterProxy` attributes.
    """

    rule_class = None
    hyperparam_ranges = None

    def __init__(self, **hyperparams):
        super().__init__()
        set_hyperparams(self.hyperparam, type(self).__name__, _ranges=self.hyperparam_ranges,
                        **hyperparams)

    def create_update_rule(self):
        return self.rule_class(self.hyperparam)
