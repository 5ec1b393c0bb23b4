"""Link hooks (``chainer.link_hooks``).

minichainer ships the :class:`~minichainer.LinkHook` base class and :class:`TimerHook`;
Chainer's SpectralNormalization and WeightStandardization are not provided yet.
"""
from minichainer.link_hooks.timer import TimerHook  # noqa: F401
