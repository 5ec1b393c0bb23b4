"""unchain_variables: cut the graphs of the reported variables to free memory early."""
from minichainer.training import extension


class unchain_variables(extension.Extension):  # noqa: N801 (Chainer's name)
    """Call ``unchain_backward()`` on every Variable in the observation."""

    trigger = 1, 'iteration'
    priority = 0

    def __call__(self, trainer):
        from minichainer import variable
        for var in trainer.observation.values():
            if isinstance(var, variable.Variable):
                var.unchain_backward()
