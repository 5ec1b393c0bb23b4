"""Utility functions (``chainer.functions.util``)."""
from minichainer.functions.util.forget import Forget  # NOQA
from minichainer.functions.util.forget import forget  # NOQA

__all__ = ['forget']
