import pytest

from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import triggers


def _feed(trainer, trigger, values, key='main/loss'):
    fired = []
    for v in values:
        trainer.updater.update()
        trainer.observation = {key: v}
        fired.append(trigger(trainer))
    return fired


@pytest.mark.parametrize('cls,values,expected', [
    (triggers.MaxValueTrigger, [1, 3, 2, 2, 5, 1], [True, False, True]),
    (triggers.MinValueTrigger, [3, 1, 4, 4, 0, 6], [True, False, False]),
])
def test_best_value_trigger(cls, values, expected):
    # The mean over each 2-iteration interval is compared with the best so far.
    trainer = get_trainer_with_mock_updater(iter_per_epoch=2)
    trigger = cls('main/loss', trigger=(2, 'iteration'))
    fired = _feed(trainer, trigger, values)
    assert fired[1::2] == expected
    assert not any(fired[0::2])


def test_best_value_trigger_serialize_and_missing_key():
    trainer = get_trainer_with_mock_updater(iter_per_epoch=2)
    trigger = triggers.MaxValueTrigger('main/acc', trigger=(2, 'iteration'))
    _feed(trainer, trigger, [0.5, 0.7], key='main/acc')
    s = npz.DictionarySerializer()
    trigger.serialize(s)
    trigger2 = triggers.MaxValueTrigger('main/acc', trigger=(2, 'iteration'))
    trigger2.serialize(npz.NpzDeserializer(s.target))
    assert trigger2._best_value == pytest.approx(0.6)
    assert _feed(trainer, trigger2, [0.5, 0.6], key='main/acc') == [False, False]
    with pytest.raises(KeyError, match='main/acc'):
        _feed(trainer, trigger2, [1, 2], key='other')
