"""FailOnNonNumber, MicroAverage, ParameterStatistics, observe_value/observe_lr,
unchain_variables and DumpGraph."""
import os
import re

import numpy
import pytest

import minichainer
import minichainer.links as L
from minichainer import configuration
from minichainer import reporter
from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import extensions

from .. import _models


class _Opt:
    def __init__(self, target, lr=0.1):
        self.target = target
        self.lr = lr


def _trainer_with_link(link):
    trainer = get_trainer_with_mock_updater()
    opt = _Opt(link)
    trainer.updater.get_all_optimizers = lambda: {'main': opt}
    trainer.updater.get_optimizer = lambda name: {'main': opt}[name]
    return trainer


def test_fail_on_nonnumber_names_parameter():
    link = L.Linear(2, 3)
    link.cleargrads()
    trainer = _trainer_with_link(link)
    ext = extensions.FailOnNonNumber()
    ext(trainer)  # finite: fine
    link.b.array[1] = numpy.nan
    with pytest.raises(RuntimeError, match="parameter '/b'"):
        ext(trainer)
    link.b.array[1] = 0
    link.W.grad = numpy.full((3, 2), numpy.inf, numpy.float32)
    ext(trainer)  # Chainer 7.8.1 checks parameters only
    with pytest.raises(RuntimeError, match="gradient of parameter '/W'"):
        extensions.FailOnNonNumber(check_grad=True)(trainer)


def test_fail_on_nonnumber_before_training_with_nan_initial_grads():
    # Parameters' gradients are NaN-filled until the first backward; a check called
    # before training (call_before_training=True) must not stop the run.
    link = L.Linear(2, 3)
    link.W.grad = numpy.full((3, 2), numpy.nan, numpy.float32)
    extensions.FailOnNonNumber()(_trainer_with_link(link))


def test_micro_average_and_serialize():
    trainer = get_trainer_with_mock_updater(iter_per_epoch=2)
    ext = extensions.MicroAverage('correct', 'total', 'accuracy',
                                  trigger=(2, 'iteration'))
    reported = []
    for correct, total in [(3, 4), (1, 6), (5, 5)]:
        trainer.updater.update()
        trainer.observation = {'correct': correct, 'total': total}
        with reporter.Reporter().scope(trainer.observation):
            ext(trainer)
        reported.append(trainer.observation.get('accuracy'))
    assert reported == [None, pytest.approx(0.4), None]
    s = npz.DictionarySerializer()
    ext.serialize(s)
    ext2 = extensions.MicroAverage('correct', 'total', 'accuracy')
    ext2.serialize(npz.NpzDeserializer(s.target))
    assert (int(ext2._numerator), int(ext2._denominator)) == (5, 5)


def test_parameter_statistics_keys_and_values():
    link = L.Linear(3, 2)
    link.W.array[...] = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link.b.array[...] = 0
    link.W.grad = numpy.ones((2, 3), numpy.float32)
    link.b.grad = None
    trainer = get_trainer_with_mock_updater(iter_per_epoch=1)
    ext = extensions.ParameterStatistics(link, prefix='pre', trigger=(1, 'iteration'))
    trainer.updater.update()
    trainer.observation = {}
    with reporter.Reporter().scope(trainer.observation):
        ext(trainer)
    obs = trainer.observation
    name = link.name  # None for an unnamed link
    w = 'pre/{}/W/data/'.format(name)
    assert obs[w + 'mean'] == pytest.approx(2.5)
    assert obs[w + 'max'] == 5 and obs[w + 'min'] == 0
    assert obs[w + 'zeros'] == 1
    assert obs[w + 'percentile/3'] == pytest.approx(2.5)
    assert 'pre/{}/W/grad/std'.format(name) in obs
    assert not any('b/grad' in k for k in obs)
    ext.register_statistics('norm', lambda x: numpy.linalg.norm(x))
    assert 'norm' in ext._statistics
    assert extensions.ParameterStatistics.default_name == 'parameter_statistics'


def test_observe_value_and_lr():
    link = L.Linear(2, 2)
    trainer = _trainer_with_link(link)
    extensions.observe_lr()(trainer)
    extensions.observe_value('twice', lambda t: 2 * t.updater.get_optimizer('main').lr)(
        trainer)
    assert trainer.observation == {'lr': 0.1, 'twice': 0.2}
    assert extensions.observe_lr.trigger == (1, 'epoch')
    # Chainer's name (the inner function made with make_extension), for both
    assert extensions.observe_lr().default_name == '_observe_value'
    assert extensions.observe_value('k', len).default_name == '_observe_value'
    assert extensions.PolynomialShift.invoke_before_training is True  # as Chainer 7
    assert extensions.dump_graph is extensions.DumpGraph
    trainer = get_trainer_with_mock_updater()
    trainer.extend(extensions.observe_lr())
    trainer.extend(extensions.observe_value('k', len))
    assert list(trainer._extensions) == ['_observe_value', '_observe_value_1']


def test_unchain_variables():
    x = minichainer.Variable(numpy.ones(2, numpy.float32))
    y = x * 2
    trainer = get_trainer_with_mock_updater()
    trainer.observation = {'y': y, 'n': 1}
    extensions.unchain_variables()(trainer)
    assert y.creator is None


def test_dump_graph_writes_dot_once_and_restores_flag(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(3, 'iteration'))
    ext = extensions.DumpGraph('main/loss')
    trainer.extend(ext)
    assert configuration.config.keep_graph_on_report is False
    trainer.run()
    assert configuration.config.keep_graph_on_report is False
    text = (tmp_path / 'cg.dot').read_text()
    assert text.startswith('digraph graphname{rankdir=TB;')
    assert text.endswith('}')
    assert re.search(r'\d+ \[label="SoftmaxCrossEntropy",shape="record",'
                     r'fillcolor="#6495ED",style="filled"\];', text)
    assert re.search(r'\d+ \[label="\(7, 4\), float32",shape="octagon",'
                     r'fillcolor="#E0E0E0",style="filled"\];', text)
    assert re.search(r'\d+ -> \d+;', text)
    mtime = os.path.getmtime(str(tmp_path / 'cg.dot'))
    assert ext._flag_called
    s = npz.DictionarySerializer()
    ext.serialize(s)
    ext2 = extensions.DumpGraph('main/loss', out_name='g.dot')
    ext2.serialize(npz.NpzDeserializer(s.target))
    assert ext2.trigger(None) is False
    assert os.path.getmtime(str(tmp_path / 'cg.dot')) == mtime


def test_dump_graph_rejects_non_variable(tmp_path):
    trainer = get_trainer_with_mock_updater((1, 'iteration'))
    trainer.out = str(tmp_path)

    def report(t):
        t.observation['main/loss'] = 1.0
    trainer.extend(report, priority=1000)
    trainer.extend(extensions.DumpGraph('main/loss'))
    with pytest.raises(TypeError, match='not a Variable'):
        trainer.run(show_loop_exception_msg=False)
    assert configuration.config.keep_graph_on_report is False
