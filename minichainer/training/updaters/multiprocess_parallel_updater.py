"""MultiprocessParallelUpdater: multi-GPU training with NCCL (not available here)."""
from minichainer.training.updaters import standard_updater


class MultiprocessParallelUpdater(standard_updater.StandardUpdater):
    """Multi-process data-parallel updater over several GPUs with NCCL.

    It needs CuPy and NCCL, which minichainer does not support: ``available()`` is
    False and constructing one raises ``RuntimeError``.
    """

    def __init__(self, iterators, optimizer, converter=None, devices=None,
                 auto_new_epoch=True):
        raise RuntimeError(
            'MultiprocessParallelUpdater needs several GPU devices with CuPy and NCCL, '
            'but minichainer only has the CPU (@numpy) device; got devices={!r}. Use '
            'StandardUpdater instead.'.format(devices))

    @staticmethod
    def available():
        """Always False: no GPU/NCCL backend exists in minichainer."""
        return False
