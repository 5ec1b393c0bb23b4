import pytest

from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import triggers


def test_once_trigger_and_resume():
    trainer = get_trainer_with_mock_updater()
    t = triggers.OnceTrigger()
    assert not t.finished
    assert [t(trainer) for _ in range(3)] == [True, False, False]
    assert t.finished
    s = npz.DictionarySerializer()
    t.serialize(s)
    t2 = triggers.OnceTrigger()
    t2.serialize(npz.NpzDeserializer(s.target))
    assert t2(trainer) is False
    t3 = triggers.OnceTrigger(call_on_resume=True)
    t3.serialize(npz.NpzDeserializer(s.target))
    assert [t3(trainer), t3(trainer)] == [True, False]


def test_time_trigger():
    class FakeTrainer:
        elapsed_time = 0.0
    tr = FakeTrainer()
    t = triggers.TimeTrigger(1.0)
    got = []
    for now in [0.5, 1.2, 1.5, 2.1, 5.0, 5.0]:
        tr.elapsed_time = now
        got.append(t(tr))
    assert got == [False, True, False, True, True, True]
    s = npz.DictionarySerializer()
    t.serialize(s)
    t2 = triggers.TimeTrigger(1.0)
    t2.serialize(npz.NpzDeserializer(s.target))
    tr.elapsed_time = 5.5
    assert t2(tr) is True
    with pytest.raises(ValueError, match='positive'):
        triggers.TimeTrigger(0)


def _feed(trainer, trigger, values, key='main/loss'):
    fired = []
    for v in values:
        trainer.updater.update()
        trainer.observation = {key: v}
        fired.append(trigger(trainer))
    return fired


def test_early_stopping_trigger_patience():
    trainer = get_trainer_with_mock_updater(iter_per_epoch=1)
    t = triggers.EarlyStoppingTrigger(check_trigger=(1, 'epoch'), monitor='main/loss',
                                      patience=2, max_trigger=(100, 'epoch'))
    assert _feed(trainer, t, [5, 4, 4.5, 3, 3.5, 3.2]) == \
        [False, False, False, False, False, True]


def test_early_stopping_trigger_accuracy_mode_max_trigger_and_serialize():
    trainer = get_trainer_with_mock_updater(iter_per_epoch=1)
    t = triggers.EarlyStoppingTrigger(monitor='val/accuracy', patience=3,
                                      max_trigger=(4, 'iteration'))
    assert t._compare(2, 1)  # 'accuracy' -> larger is better
    assert _feed(trainer, t, [0.1, 0.2, 0.3], key='val/accuracy') == [False] * 3
    s = npz.DictionarySerializer()
    t.serialize(s)
    t2 = triggers.EarlyStoppingTrigger(monitor='val/accuracy', patience=3,
                                       max_trigger=(4, 'iteration'))
    t2.serialize(npz.NpzDeserializer(s.target))
    assert t2.best == pytest.approx(0.3)
    assert _feed(trainer, t2, [0.0], key='val/accuracy') == [True]  # max_trigger
    assert t2.get_training_length() == (4, 'iteration')


def test_early_stopping_trigger_patients_alias_and_errors():
    t = triggers.EarlyStoppingTrigger(patients=5)
    assert t.patience == 5
    with pytest.raises(TypeError, match='patients'):
        triggers.EarlyStoppingTrigger(patience=1, patients=2)
    with pytest.raises(ValueError, match="got 'biggest'"):
        triggers.EarlyStoppingTrigger(mode='biggest')


def test_once_trigger_old_snapshot_without_flag():
    trainer = get_trainer_with_mock_updater()
    t = triggers.OnceTrigger()
    with pytest.warns(UserWarning, match='not saved'):
        t.serialize(npz.NpzDeserializer({}))
    assert t(trainer) is False
    t2 = triggers.OnceTrigger(call_on_resume=True)
    with pytest.warns(UserWarning):
        t2.serialize(npz.NpzDeserializer({}))
    assert [t2(trainer), t2(trainer)] == [True, False]


@pytest.mark.parametrize('key,values,expected', [
    ('main/accuracy', [0.5, 0.5, 0.6, 0.7, 0.6, 0.4, 0.3, 0.2],
     [False] * 6 + [True, True]),
    ('main/loss', [100, 80, 30, 10, 20, 24, 30, 35], [False] * 6 + [True, True]),
])
def test_early_stopping_with_variables_each_epoch(key, values, expected):
    import numpy
    import minichainer
    trainer = get_trainer_with_mock_updater(stop_trigger=None, iter_per_epoch=1)
    t = triggers.EarlyStoppingTrigger(monitor=key, patience=3, check_trigger=(1, 'epoch'))
    got = []
    for v in values:
        trainer.updater.update()
        trainer.observation = {key: minichainer.Variable(numpy.asarray(v, numpy.float32))}
        got.append(t(trainer))
    assert got == expected
