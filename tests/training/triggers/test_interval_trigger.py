import numpy
import pytest

from minichainer import training
from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import triggers


def _run(trainer, trigger, n):
    fired = []
    for _ in range(n):
        trainer.updater.update()
        fired.append(trigger(trainer))
    return fired


@pytest.mark.parametrize('period,unit,iter_per_epoch,expected', [
    (2, 'iteration', 5, [False, True] * 5),
    (1, 'epoch', 3, [False, False, True] * 3),
    (2, 'epoch', 2, [False, False, False, True] * 2),
    (0.5, 'epoch', 3, [False, True, True, False, True, True]),
    (1, 'epoch', 2.5, [False, False, True, False, True, False, False, True]),
])
def test_interval_trigger_table(period, unit, iter_per_epoch, expected):
    trainer = get_trainer_with_mock_updater(iter_per_epoch=iter_per_epoch)
    trigger = triggers.IntervalTrigger(period, unit)
    assert _run(trainer, trigger, len(expected)) == expected


@pytest.mark.parametrize('period,unit,iter_per_epoch,expected,resume', [
    (2, 'iteration', 5, [False, True] * 5, 3),
    (1, 'epoch', 3, [False, False, True] * 3, 4),
    (0.5, 'epoch', 3, [False, True, True, False, True, True], 2),
    (1, 'epoch', 2.5, [False, False, True, False, True, False, False, True], 3),
])
def test_interval_trigger_resume(period, unit, iter_per_epoch, expected, resume):
    trainer = get_trainer_with_mock_updater(iter_per_epoch=iter_per_epoch)
    trigger = triggers.IntervalTrigger(period, unit)
    fired = _run(trainer, trigger, resume)
    s = npz.DictionarySerializer()
    trigger.serialize(s)

    trainer2 = get_trainer_with_mock_updater(iter_per_epoch=iter_per_epoch)
    for _ in range(resume):
        trainer2.updater.update()
    trigger2 = triggers.IntervalTrigger(period, unit)
    trigger2.serialize(npz.NpzDeserializer(s.target))
    fired += _run(trainer2, trigger2, len(expected) - resume)
    assert fired == expected


def test_interval_trigger_old_snapshot_guesses_previous():
    trainer = get_trainer_with_mock_updater(iter_per_epoch=3)
    for _ in range(2):
        trainer.updater.update()
    trigger = triggers.IntervalTrigger(1, 'epoch')
    with pytest.warns(UserWarning):
        trigger.serialize(npz.NpzDeserializer({}))
    trainer.updater.update()
    assert trigger(trainer)


@pytest.mark.parametrize('period,unit,match', [
    (1, 'epochs', "unit must be either 'epoch' or 'iteration', got 'epochs'"),
    (0, 'epoch', 'period must be a positive number, got 0'),
    (-2, 'iteration', 'got -2'),
])
def test_interval_trigger_bad_input(period, unit, match):
    with pytest.raises(ValueError, match=match):
        triggers.IntervalTrigger(period, unit)
    with pytest.raises(ValueError, match=match):
        training.get_trigger((period, unit))


def test_get_trigger():
    def fn(trainer):
        return True
    assert training.get_trigger(fn) is fn
    assert training.get_trigger(None)(None) is False
    t = training.get_trigger((3, 'iteration'))
    assert isinstance(t, triggers.IntervalTrigger)
    assert t.get_training_length() == (3, 'iteration')
    assert str(t) == "IntervalTrigger(3, 'iteration')"
    with pytest.raises(TypeError, match='trigger must be'):
        training.get_trigger(5)


def test_stop_trigger_in_trainer_epochs():
    trainer = get_trainer_with_mock_updater(stop_trigger=(2, 'epoch'), iter_per_epoch=4)
    trainer.run()
    assert trainer.updater.iteration == 8
    assert numpy.isclose(trainer.updater.epoch_detail, 2.0)


class _CountingUpdater:
    """An updater whose `epoch_detail` counts its reads (or is missing)."""

    def __init__(self, has_epoch_detail=True):
        self.iteration = 0
        self.reads = 0
        self.has_epoch_detail = has_epoch_detail

    @property
    def epoch_detail(self):
        if not self.has_epoch_detail:
            raise AttributeError('epoch_detail')
        self.reads += 1
        return self.iteration / 4


class _Trainer:
    def __init__(self, updater):
        self.updater = updater


@pytest.mark.parametrize('unit', ['iteration', 'epoch'])
def test_interval_trigger_reads_epoch_detail_once_per_call(unit):
    updater = _CountingUpdater()
    trigger = triggers.IntervalTrigger(1, unit)
    fired = []
    for _ in range(8):
        updater.iteration += 1
        fired.append(trigger(_Trainer(updater)))
    assert updater.reads == 8
    assert fired == ([True] * 8 if unit == 'iteration' else [False, False, False, True] * 2)
    assert trigger._previous_epoch_detail == 2.0


def test_interval_trigger_without_epoch_detail():
    updater = _CountingUpdater(has_epoch_detail=False)
    trigger = triggers.IntervalTrigger(2, 'iteration')
    updater.iteration = 2
    assert trigger(_Trainer(updater))
    assert trigger._previous_epoch_detail == 0.
    with pytest.raises(AttributeError, match='epoch_detail'):
        triggers.IntervalTrigger(1, 'epoch')(_Trainer(updater))
