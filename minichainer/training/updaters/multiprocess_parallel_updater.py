"""MultiprocessParallelUpdater: multi-GPU training with NCCL (not available here)."""
from minichainer.training.updaters import standard_updater


class MultiprocessParallelUpdater(standard_updater.StandardUpdater):
    """Multi-process data-parallel updater over several GPUs with NCCL.

    It needs CuPy and NCCL, which minichainer does not support: `available()` is
    False and constructing one raises `RuntimeError`.
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


def size_num_grads(link):
    """Return `(total size, count)` of the non-empty parameters of `link`."""
    size = 0
    num = 0
    for param in link.params():
        if param.size == 0:
            continue
        size += param.size
        num += 1
    return size, num


def _gpu_only(name, link):
    raise RuntimeError(
        '{} works only on GPU, but minichainer has no GPU backend (the link {!r} '
        'lives on the CPU).'.format(name, type(link).__name__))


def gather_grads(link):
    """Pack all gradient arrays of `link` into one GPU array (GPU only).

    Raises:
        RuntimeError: always, as minichainer has only the CPU device.
    """
    _gpu_only('gather_grads', link)


def gather_params(link):
    """Pack all parameter arrays of `link` into one GPU array (GPU only).

    Raises:
        RuntimeError: always, as minichainer has only the CPU device.
    """
    _gpu_only('gather_params', link)


def scatter_grads(link, array):
    """Inverse of `gather_grads` (GPU only).

    Raises:
        RuntimeError: always, as minichainer has only the CPU device.
    """
    _gpu_only('scatter_grads', link)


def scatter_params(link, array):
    """Inverse of `gather_params` (GPU only).

    Raises:
        RuntimeError: always, as minichainer has only the CPU device.
    """
    _gpu_only('scatter_params', link)
