"""`chainer.training.updater`: the Updater base class and the standard updaters.

Kept for code that reaches the updaters through this module (Chainer 7 re-exports
them here); the implementations live in `_updater` and `updaters`.
"""
from minichainer.training._updater import Updater  # noqa: F401

from minichainer.training.updaters.parallel_updater import ParallelUpdater  # noqa: F401
from minichainer.training.updaters.standard_updater import StandardUpdater  # noqa: F401
