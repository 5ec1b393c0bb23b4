"""Helpers shared by the update rules and optimizers of this package."""


def set_given_hyperparams(hyperparam, **values):
    """Set on ``hyperparam`` each of ``values`` that is not None (in the given order).

    Update rules use it for their keyword overrides: None keeps the parent's value.
    """
    for name, value in values.items():
        if value is not None:
            setattr(hyperparam, name, value)


def set_hyperparams(hyperparam, **values):
    """Set every one of ``values`` on ``hyperparam`` (in the given order)."""
    for name, value in values.items():
        setattr(hyperparam, name, value)
