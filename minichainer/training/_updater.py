"""Updater base class (`chainer.training.Updater`, defined in `chainer.training._updater`)."""


class Updater:
    """Interface of updaters: objects that run one training step per `update()`.

    Subclasses implement `get_optimizer`, `get_all_optimizers`, `update` and
    `serialize`; `connect_trainer` and `finalize` are optional hooks.
    """

    def connect_trainer(self, trainer):
        """Called by the Trainer's constructor; does nothing by default."""
        pass

    def finalize(self):
        """Called at the end of training; does nothing by default."""
        pass

    def get_optimizer(self, name):
        """Return the optimizer named `name`."""
        raise NotImplementedError

    def get_all_optimizers(self):
        """Return a dict of all optimizers."""
        raise NotImplementedError

    def update(self):
        """Run one update step."""
        raise NotImplementedError

    def serialize(self, serializer):
        """Save or load the updater's state."""
        raise NotImplementedError
