"""`get_trainer_with_mock_updater`: a Trainer driven by a mock updater, for testing
extensions and triggers."""
import numbers
from unittest import mock

from minichainer import training


def get_trainer_with_mock_updater(stop_trigger=(10, 'iteration'), iter_per_epoch=10,
                                  extensions=None):
    """Return a [`Trainer`][minichainer.training.trainer.Trainer] whose updater is a mock.

    Each `update()` calls `updater.update_core()` (a mock method) and advances
    `iteration` by one, with `epoch`, `epoch_detail`, `previous_epoch_detail`
    and `is_new_epoch` computed from `iter_per_epoch` iterations per epoch.

    Args:
        stop_trigger: Stop trigger of the trainer.
        iter_per_epoch (int or float): Iterations per epoch; must be positive.
        extensions (list): Extensions to register.
    """
    if isinstance(iter_per_epoch, bool) or not isinstance(iter_per_epoch, numbers.Real) \
            or not iter_per_epoch > 0:
        raise ValueError('get_trainer_with_mock_updater: iter_per_epoch must be a positive '
                         'number, got {!r}'.format(iter_per_epoch))
    if extensions is None:
        extensions = []
    updater = mock.Mock()
    updater.get_all_optimizers.return_value = {}
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0
    updater.is_new_epoch = True
    updater.previous_epoch_detail = None

    def update():
        updater.update_core()
        updater.iteration += 1
        updater.epoch = updater.iteration // iter_per_epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch
        updater.is_new_epoch = (updater.iteration - 1) // iter_per_epoch != updater.epoch
        updater.previous_epoch_detail = (updater.iteration - 1) / iter_per_epoch

    updater.update = update
    return training.Trainer(updater, stop_trigger, extensions=extensions)
