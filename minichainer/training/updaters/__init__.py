"""Updaters (`chainer.training.updaters`)."""
from minichainer.training.updaters.multiprocess_parallel_updater import MultiprocessParallelUpdater  # noqa
from minichainer.training.updaters.parallel_updater import ParallelUpdater  # noqa
from minichainer.training.updaters.standard_updater import StandardUpdater  # noqa
