"""unchain_variables: fires when keep_graph_on_report was on at the previous check."""
import numpy

import minichainer
from minichainer import configuration
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import extensions
from minichainer.training.extensions import variable_unchain


def _graph():
    x = minichainer.Variable(numpy.ones(2, numpy.float32))
    return x * 2


def test_exported_from_extensions_and_priority():
    assert extensions.unchain_variables is variable_unchain.unchain_variables
    assert extensions.unchain_variables.priority == 0


def test_call_unchains_only_variables():
    y = _graph()
    assert y.creator is not None
    trainer = get_trainer_with_mock_updater()
    trainer.observation = {'y': y, 'n': 1, 'arr': numpy.zeros(1)}
    extensions.unchain_variables()(trainer)
    assert y.creator is None
    assert trainer.observation['n'] == 1


def test_trigger_follows_previous_flag():
    ext = extensions.unchain_variables()
    trainer = get_trainer_with_mock_updater()
    with configuration.using_config('keep_graph_on_report', False):
        ext.initialize(trainer)
        assert not ext.trigger(trainer)
    with configuration.using_config('keep_graph_on_report', True):
        assert not ext.trigger(trainer)  # the flag was off at the previous check
        assert ext.trigger(trainer)
    assert ext.trigger(trainer)  # on at the previous check, off now
    assert not ext.trigger(trainer)


def test_in_trainer_unchains_reported_graphs_under_flag():
    seen = []

    def report_graph(trainer):
        y = _graph()
        seen.append(y)
        trainer.observation['y'] = y

    trainer = get_trainer_with_mock_updater(stop_trigger=(3, 'iteration'))
    trainer.extend(report_graph, trigger=(1, 'iteration'), priority=100)
    trainer.extend(extensions.unchain_variables())
    with configuration.using_config('keep_graph_on_report', True):
        trainer.run()
    assert len(seen) == 3
    assert all(y.creator is None for y in seen)


def test_in_trainer_keeps_graphs_without_flag():
    seen = []

    def report_graph(trainer):
        y = _graph()
        seen.append(y)
        trainer.observation['y'] = y

    trainer = get_trainer_with_mock_updater(stop_trigger=(2, 'iteration'))
    trainer.extend(report_graph, trigger=(1, 'iteration'), priority=100)
    trainer.extend(extensions.unchain_variables())
    with configuration.using_config('keep_graph_on_report', False):
        trainer.run()
    assert len(seen) == 2
    assert all(y.creator is not None for y in seen)
