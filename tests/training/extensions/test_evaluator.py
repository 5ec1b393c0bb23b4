
import numpy
import pytest

import minichainer
from minichainer import configuration
from minichainer import reporter
from minichainer import training
from minichainer.training import extensions

from .. import _models


class _Target(minichainer.Link):
    """Reports the mean of each batch; records the config it ran under."""

    def __init__(self):
        super().__init__()
        self.calls = []

    def forward(self, x):
        self.calls.append((configuration.config.train, configuration.config.enable_backprop,
                           x.shape[0]))
        reporter.report({'value': float(x.mean()), 'n': x.shape[0]}, self)


def _iterator(n=10, batch=4):
    data = numpy.arange(n, dtype=numpy.float32).reshape(n, 1)
    return minichainer.iterators.SerialIterator(data, batch, repeat=False, shuffle=False)


def test_evaluate_reports_means_under_eval_mode():
    target = _Target()
    ev = extensions.Evaluator(_iterator(), target)
    ev.name = 'validation'
    observation = {}
    r = reporter.Reporter()
    with r.scope(observation):
        result = ev()
    # batches [0..3], [4..7], [8, 9]: mean of batch means
    assert result['validation/main/value'] == pytest.approx((1.5 + 5.5 + 8.5) / 3)
    assert observation['validation/main/value'] == result['validation/main/value']
    assert target.calls == [(False, False, 4), (False, False, 4), (False, False, 2)]
    assert configuration.config.train is True


def test_iterator_is_reset_each_call_and_eval_hook():
    target = _Target()
    hooks = []
    ev = extensions.Evaluator(_iterator(), target, eval_hook=hooks.append)
    first = ev()
    second = ev()
    assert first == second
    assert len(target.calls) == 6
    assert hooks == [ev, ev]


def test_iterator_without_reset_is_copied():
    class NoReset:
        def __init__(self, batches):
            self.batches = batches
            self.i = 0

        def __iter__(self):
            return self

        def __next__(self):
            if self.i >= len(self.batches):
                raise StopIteration
            self.i += 1
            return self.batches[self.i - 1]

        def __copy__(self):
            return NoReset(self.batches)

        def finalize(self):
            pass

    it = NoReset([[numpy.array([1.0], numpy.float32)], [numpy.array([3.0], numpy.float32)]])
    target = _Target()
    ev = extensions.Evaluator(it, target)
    with pytest.warns(DeprecationWarning, match='reset'):
        result = ev()
    assert result['main/value'] == pytest.approx(2.0)
    assert it.i == 0


def test_eval_func_dict_targets_and_converter():
    seen = []

    def conv(batch, device=None):
        return {'x': numpy.stack(batch)}

    def eval_func(x):
        seen.append(x.shape)
    a, b = _Target(), _Target()
    ev = extensions.Evaluator({'main': _iterator()}, {'main': a, 'aux': b},
                              converter=conv, eval_func=eval_func)
    ev()
    assert seen == [(4, 1), (4, 1), (2, 1)]
    assert ev.get_target('aux') is b
    assert set(ev.get_all_targets()) == {'main', 'aux'}
    assert ev.get_iterator('main') is ev.get_all_iterators()['main']


def test_repeat_iterator_warns_and_bad_kwarg():
    data = numpy.zeros((4, 1), numpy.float32)
    with pytest.warns(UserWarning, match='repeat'):
        extensions.Evaluator(minichainer.iterators.SerialIterator(data, 2), _Target())
    with pytest.raises(TypeError, match="'bogus'"):
        extensions.Evaluator(_iterator(), _Target(), bogus=1)


def test_evaluator_in_trainer_with_classifier(tmp_path):
    trainer, model = _models.make_trainer(tmp_path, stop=(2, 'epoch'))
    val = minichainer.iterators.SerialIterator(_models.make_dataset(20, seed=3), 8,
                                               repeat=False, shuffle=False)
    trainer.extend(extensions.Evaluator(val, model, progress_bar=True),
                   call_before_training=True)
    log = extensions.LogReport()
    trainer.extend(log)
    trainer.run()
    assert len(log.log) == 2
    assert 'validation/main/loss' in log.log[0]
    assert 'validation/main/accuracy' in log.log[1]
    assert extensions.Evaluator.default_name == 'validation'
    assert extensions.Evaluator.priority == training.PRIORITY_WRITER


@pytest.mark.parametrize('iterator_class', ['SerialIterator', 'MultithreadIterator'])
def test_repeating_iterator_raises_instead_of_looping_forever(iterator_class):
    data = numpy.zeros((4, 1), numpy.float32)
    it = getattr(minichainer.iterators, iterator_class)(data, 2)  # repeat=True
    with pytest.warns(UserWarning, match='repeat'):
        ev = extensions.Evaluator(it, _Target())
    with pytest.raises(ValueError, match=r"Evaluator: the iterator 'main' has "
                                         r"repeat=True.*repeat=False"):
        ev.evaluate()
    with pytest.raises(ValueError, match='repeat=True'):
        ev()
    it.finalize()


def test_repeating_iterator_raises_in_a_trainer():
    trainer, model = _models.make_trainer('unused', stop=(1, 'epoch'))
    val = minichainer.iterators.SerialIterator(_models.make_dataset(8), 4)
    with pytest.warns(UserWarning):
        trainer.extend(extensions.Evaluator(val, model), trigger=(1, 'iteration'))
    with pytest.raises(ValueError, match='repeat=True'):
        trainer.run(show_loop_exception_msg=False)
