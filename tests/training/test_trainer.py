import os
import re

import pytest

from minichainer import training
from minichainer.testing.training import get_trainer_with_mock_updater


class _Recorder(training.Extension):

    def __init__(self, log, name, priority=training.PRIORITY_READER, trigger=None):
        self.log = log
        self._name = name
        self.priority = priority
        if trigger is not None:
            self.trigger = trigger

    def __call__(self, trainer):
        self.log.append((self._name, trainer.updater.iteration))

    def initialize(self, trainer):
        self.log.append((self._name, 'init'))

    def finalize(self):
        self.log.append((self._name, 'fin'))


def test_extensions_called_in_priority_order(tmp_path):
    log = []
    trainer = get_trainer_with_mock_updater((2, 'iteration'))
    trainer.out = str(tmp_path / 'out')
    trainer.extend(_Recorder(log, 'reader'), name='r')
    trainer.extend(_Recorder(log, 'writer', training.PRIORITY_WRITER), name='w')
    trainer.extend(_Recorder(log, 'editor', training.PRIORITY_EDITOR), name='e')
    trainer.extend(_Recorder(log, 'reader2'), name='r2')
    trainer.run()
    assert os.path.isdir(trainer.out)
    order = ['writer', 'editor', 'reader', 'reader2']
    assert log == ([(n, 'init') for n in order] + [(n, 1) for n in order]
                   + [(n, 2) for n in order] + [(n, 'fin') for n in order])


def test_trigger_and_call_before_training(tmp_path):
    calls = []

    def ext(trainer):
        calls.append((trainer.updater.iteration, trainer.is_before_training))

    trainer = get_trainer_with_mock_updater((6, 'iteration'))
    trainer.out = str(tmp_path)
    trainer.extend(ext, trigger=(3, 'iteration'), call_before_training=True)
    trainer.run()
    assert calls == [(0, True), (3, False), (6, False)]
    assert trainer.get_extension('ext') is ext


def test_name_resolution_and_clash_suffix():
    trainer = get_trainer_with_mock_updater()

    @training.make_extension(default_name='my_ext')
    def a(trainer):
        pass

    def b(trainer):
        pass

    trainer.extend(a)
    assert a.name == 'my_ext'
    trainer.extend(b)
    trainer.extend(b, name='b')
    trainer.extend(lambda t: None, name='b')
    assert list(trainer._extensions) == ['my_ext', 'b', 'b_1', 'b_2']
    with pytest.raises(ValueError, match='"training" is prohibited'):
        trainer.extend(lambda t: None, name='training')
    with pytest.raises(ValueError, match='extension nope not found'):
        trainer.get_extension('nope')
    with pytest.raises(ValueError, match='invoke_before_training'):
        trainer.extend(b, invoke_before_training=True)
    with pytest.raises(TypeError, match="'foo'"):
        trainer.extend(b, foo=1)

    class NoName:
        __slots__ = ()

        def __call__(self, trainer):
            pass
    with pytest.raises(TypeError):
        trainer.extend(NoName())


def test_extension_defaults():
    class MyExt(training.Extension):
        def __call__(self, trainer):
            pass
    e = MyExt()
    assert e.default_name == 'MyExt'
    assert e.trigger == (1, 'iteration')
    assert e.priority == training.PRIORITY_READER
    assert (training.PRIORITY_WRITER, training.PRIORITY_EDITOR,
            training.PRIORITY_READER) == (300, 200, 100)
    with pytest.raises(AttributeError, match='invoke_before_training has been removed'):
        e.invoke_before_training
    with pytest.raises(NotImplementedError):
        training.Extension()(None)


def test_make_extension_attributes():
    def fin():
        pass

    def init(trainer):
        pass

    @training.make_extension(trigger=(2, 'epoch'), priority=7, finalizer=fin,
                             initializer=init)
    def ext(trainer):
        pass
    assert ext.trigger == (2, 'epoch')
    assert ext.priority == 7
    assert ext.default_name == 'ext'
    assert ext.finalize is fin and ext.initialize is init and ext.on_error is None
    with pytest.raises(ValueError, match='invoke_before_training'):
        training.make_extension(invoke_before_training=True)


def test_error_handling_calls_on_error_and_finalize(tmp_path, capsys):
    log = []

    class Boom(Exception):
        pass

    def failing(trainer):
        if trainer.updater.iteration == 2:
            raise Boom('bad things')

    @training.make_extension(on_error=lambda tr, e, tb: log.append(('err', type(e))),
                             finalizer=lambda: log.append('fin'))
    def watcher(trainer):
        pass

    trainer = get_trainer_with_mock_updater((5, 'iteration'))
    trainer.out = str(tmp_path)
    trainer.extend(failing)
    trainer.extend(watcher)
    with pytest.raises(Boom):
        trainer.run()
    assert log == [('err', Boom), 'fin']
    assert 'Exception in main training loop: bad things' in capsys.readouterr().err
    assert trainer.updater.iteration == 2


def test_every_finalizer_runs_when_one_raises(tmp_path):
    log = []

    def failing_finalizer():
        log.append('failing')
        raise OSError('disk full')

    @training.make_extension(finalizer=failing_finalizer, priority=training.PRIORITY_WRITER)
    def first(trainer):
        pass

    trainer = get_trainer_with_mock_updater((2, 'iteration'))
    trainer.out = str(tmp_path)
    trainer.extend(first)
    trainer.extend(_Recorder(log, 'later'), name='later')
    updater_finalize = trainer.updater.finalize

    def record_updater_finalize():
        log.append('updater')
        return updater_finalize()

    trainer.updater.finalize = record_updater_finalize
    with pytest.raises(OSError, match='disk full'):
        trainer.run()
    assert log[-3:] == ['failing', ('later', 'fin'), 'updater']


def test_run_twice_and_elapsed_time(tmp_path):
    trainer = get_trainer_with_mock_updater((1, 'iteration'))
    trainer.out = str(tmp_path)
    with pytest.raises(RuntimeError, match='not been started'):
        trainer.elapsed_time
    trainer.run()
    assert trainer.elapsed_time >= 0
    assert trainer.elapsed_time == trainer.elapsed_time  # frozen after the run
    with pytest.raises(RuntimeError, match='multiple times'):
        trainer.run()


def test_initialize_skipped_for_finished_trigger(tmp_path):
    log = []
    trainer = get_trainer_with_mock_updater((1, 'iteration'))
    trainer.out = str(tmp_path)
    once = training.triggers.OnceTrigger()
    once._flag_first = False  # as if loaded from a snapshot where it already fired
    trainer.extend(_Recorder(log, 'x'), trigger=once)
    trainer.run()
    assert log == [('x', 'fin')]


def test_observers_registered_and_observation_per_iteration(tmp_path):
    from . import _models
    trainer, model = _models.make_trainer(tmp_path, stop=(3, 'iteration'))
    seen = []
    trainer.extend(lambda t: seen.append(sorted(t.observation)), name='spy')
    trainer.run()
    assert seen == [['main/accuracy', 'main/loss']] * 3
    names = trainer.reporter._observer_names
    assert names[id(model)] == 'main'
    assert names[id(model.predictor.l1)] == 'main/predictor/l1'


def test_extensions_argument_and_out_default():
    ext = _Recorder([], 'a')
    trainer = get_trainer_with_mock_updater(extensions=[ext])
    assert trainer.get_extension('_Recorder') is ext
    assert trainer.out == 'result'


@pytest.mark.parametrize('bad', [42, 'LogReport', None, [1]])
def test_extend_with_a_non_callable_names_what_came(bad):
    trainer = get_trainer_with_mock_updater()
    with pytest.raises(TypeError, match=r'extension must be callable.*got {}'.format(
            re.escape(repr(bad)))):
        trainer.extend(bad)
    assert not trainer._extensions
