"""ParallelUpdater: data-parallel training on several devices (not available here)."""
from minichainer.training.updaters import standard_updater


class ParallelUpdater(standard_updater.StandardUpdater):
    """Data-parallel updater over several GPUs.

    minichainer only has the CPU/NumPy device, so constructing one raises
    `RuntimeError`.  Use
    [`StandardUpdater`][minichainer.training.updaters.standard_updater.StandardUpdater] instead.
    """

    def __init__(self, iterator, optimizer, converter=None, models=None, devices=None,
                 loss_func=None, loss_scale=None, auto_new_epoch=True):
        raise RuntimeError(
            'ParallelUpdater needs several GPU devices, but minichainer only has the CPU '
            '(@numpy) device; got devices={!r}. Use StandardUpdater instead.'.format(
                devices))
