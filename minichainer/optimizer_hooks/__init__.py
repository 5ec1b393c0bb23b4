"""Optimizer hooks (`chainer.optimizer_hooks`): gradient regularization and clipping."""
from minichainer.optimizer_hooks.gradient_clipping import GradientClipping  # noqa: F401
from minichainer.optimizer_hooks.gradient_hard_clipping import GradientHardClipping  # noqa
from minichainer.optimizer_hooks.gradient_lars import GradientLARS  # noqa: F401
from minichainer.optimizer_hooks.gradient_noise import GradientNoise  # noqa: F401
from minichainer.optimizer_hooks.gradient_noise import exponential_decay_noise  # noqa: F401
from minichainer.optimizer_hooks.lasso import Lasso  # noqa: F401
from minichainer.optimizer_hooks.weight_decay import WeightDecay  # noqa: F401
