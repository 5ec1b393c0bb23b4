"""`chainer.iterators.DaliIterator` stand-in: NVIDIA DALI pipelines need a GPU."""
from minichainer.dataset import iterator


class DaliIterator(iterator.Iterator):
    """Iterator over an NVIDIA DALI pipeline; not available in minichainer.

    Raises:
        RuntimeError: Always, at construction (DALI needs CUDA, which minichainer lacks).
    """

    def __init__(self, pipeline, repeat=True):
        raise RuntimeError(
            'DaliIterator: NVIDIA DALI pipelines need a CUDA GPU, which minichainer does '
            'not support; use SerialIterator or MultiprocessIterator instead')
