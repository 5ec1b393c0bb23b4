"""Link hooks (``chainer.link_hooks``): SpectralNormalization and TimerHook.

Chainer's WeightStandardization is not provided yet.
"""
from minichainer.link_hooks.spectral_normalization import SpectralNormalization  # noqa: F401
from minichainer.link_hooks.timer import TimerHook  # noqa: F401
