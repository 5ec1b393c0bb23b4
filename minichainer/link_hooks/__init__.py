"""Link hooks (`chainer.link_hooks`): SpectralNormalization, TimerHook and
WeightStandardization."""
from minichainer.link_hooks.spectral_normalization import SpectralNormalization  # noqa: F401
from minichainer.link_hooks.timer import TimerHook  # noqa: F401
from minichainer.link_hooks.weight_standardization import WeightStandardization  # noqa: F401,E501
