"""observe_value / observe_lr: put a computed value into the observation."""
from minichainer.training import extension


class observe_value(extension.Extension):  # noqa: N801 (Chainer's name)
    """Extension storing `target_func(trainer)` as `observation[observation_key]`.

    Default trigger `(1, 'epoch')`, priority `PRIORITY_WRITER`.
    """

    trigger = 1, 'epoch'
    priority = extension.PRIORITY_WRITER
    # Chainer's observe_value/observe_lr return a function made with make_extension,
    # so its registered name is '_observe_value' (a second one gets '_observe_value_1');
    # trigger state is saved in snapshots under that name.
    default_name = '_observe_value'

    def __init__(self, observation_key, target_func):
        self._observation_key = observation_key
        self._target_func = target_func

    def __call__(self, trainer):
        trainer.observation[self._observation_key] = self._target_func(trainer)


class observe_lr(observe_value):  # noqa: N801 (Chainer's name)
    """Extension storing the learning rate `lr` of optimizer `optimizer_name` as
    `observation[observation_key]` (`'lr'` by default)."""

    def __init__(self, optimizer_name='main', observation_key='lr'):
        super().__init__(
            observation_key,
            lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)
