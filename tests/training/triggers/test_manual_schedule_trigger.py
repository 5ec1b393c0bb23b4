import pytest

from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import triggers


def _run(trainer, trigger, n):
    out = []
    for _ in range(n):
        trainer.updater.update()
        out.append((trigger(trainer), trigger.finished))
    return out


@pytest.mark.parametrize('points,unit,ipe,expected', [
    ([2, 5], 'iteration', 3, [False, True, False, False, True, False]),
    (3, 'iteration', 2, [False, False, True, False]),
    ([1, 1.5], 'epoch', 2, [False, True, True, False]),
    ([0.9], 'epoch', 2.5, [False, False, True, False]),
])
def test_manual_schedule_table(points, unit, ipe, expected):
    trainer = get_trainer_with_mock_updater(iter_per_epoch=ipe)
    trigger = triggers.ManualScheduleTrigger(points, unit)
    got = _run(trainer, trigger, len(expected))
    assert [f for f, _ in got] == expected
    last = max(expected.index(True, i) for i in range(len(expected)) if expected[i])
    assert [fin for _, fin in got] == [i >= last for i in range(len(expected))]


def test_manual_schedule_resume():
    trainer = get_trainer_with_mock_updater(iter_per_epoch=3)
    trigger = triggers.ManualScheduleTrigger([2, 5], 'iteration')
    first = _run(trainer, trigger, 3)
    s = npz.DictionarySerializer()
    trigger.serialize(s)
    assert set(s.target) == {'previous_iteration', 'previous_epoch_detail', 'finished'}
    trigger2 = triggers.ManualScheduleTrigger([2, 5], 'iteration')
    trigger2.serialize(npz.NpzDeserializer(s.target))
    rest = _run(trainer, trigger2, 3)
    assert [f for f, _ in first + rest] == [False, True, False, False, True, False]


def test_manual_schedule_bad_unit():
    with pytest.raises(ValueError, match="got 'iter'"):
        triggers.ManualScheduleTrigger([1], 'iter')
