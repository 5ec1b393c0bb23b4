"""``training.updater`` re-exports the updaters as in Chainer 7; ``_updater`` holds
the base class."""
from minichainer import training
from minichainer.training import _updater
from minichainer.training import updater


def test_updater_module_reexports_standard_and_parallel_updaters():
    assert updater.StandardUpdater is training.StandardUpdater
    assert updater.ParallelUpdater is training.ParallelUpdater
    assert updater.Updater is training.Updater is _updater.Updater
    assert issubclass(updater.StandardUpdater, _updater.Updater)


def test_interval_trigger_exported_at_training_level():
    from minichainer.training import triggers
    assert training.IntervalTrigger is triggers.IntervalTrigger
    assert training.trigger.IntervalTrigger is triggers.IntervalTrigger
