"""``trainer.extend(ext, call_before_training=True)`` as in Chainer 7.8.1.

Chainer's ``Trainer.run`` calls those extensions once, in a fresh observation, only when
``trainer.is_before_training`` (``updater.iteration == 0``), so not after a resume;
``LogReport`` and ``PlotReport`` emit an entry whenever ``trainer.is_before_training``
(without consulting their own trigger), so that the iteration-0 evaluation is an entry
of its own and is not averaged into the first epoch.
"""
import io
import os

import numpy
import pytest

import minichainer
from minichainer import training
from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import extensions

from . import _models


class _Watch(training.Extension):
    """Records ``validation/main/loss`` as the trainer's observation holds it."""

    priority = training.PRIORITY_READER + 1  # after the Evaluator, before LogReport

    def __init__(self):
        self.seen = []

    def __call__(self, trainer):
        value = trainer.observation.get('validation/main/loss')
        if value is not None:
            self.seen.append((trainer.updater.iteration, float(value)))


def _val_iter():
    return minichainer.iterators.SerialIterator(
        _models.make_dataset(20, seed=3), 10, repeat=False, shuffle=False)


def _mnist_like_trainer(out, stop=(2, 'epoch'), autoload=False):
    """The extensions of Chainer's MNIST example, on a small model."""
    trainer, model = _models.make_trainer(out, stop=stop, batch_size=10)
    cbt = dict(call_before_training=True)
    trainer.extend(extensions.Evaluator(_val_iter(), model), **cbt)
    trainer.extend(extensions.snapshot(n_retains=1, autoload=autoload),
                   trigger=(1, 'epoch'))
    watch = _Watch()
    trainer.extend(watch, trigger=(1, 'epoch'), **cbt)
    trainer.extend(extensions.LogReport(), **cbt)
    out_stream = io.StringIO()
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'main/loss', 'validation/main/loss'], out=out_stream), **cbt)
    return trainer, watch, out_stream


def test_log_report_writes_a_separate_iteration_0_entry(tmp_path):
    trainer, watch, _ = _mnist_like_trainer(tmp_path)
    trainer.run()
    log = trainer.get_extension('LogReport').log
    assert [(e['epoch'], e['iteration']) for e in log] == [(0, 0), (1, 5), (2, 10)]
    # the iteration-0 entry holds the evaluation of the untrained model only
    assert set(log[0]) == {'validation/main/loss', 'validation/main/accuracy', 'epoch',
                           'iteration', 'elapsed_time'}
    # each epoch's entry holds exactly the evaluation at the end of that epoch: the
    # iteration-0 evaluation is not averaged into it
    assert watch.seen[0][0] == 0 and watch.seen[1][0] == 5 and watch.seen[2][0] == 10
    assert [e['validation/main/loss'] for e in log] == [v for _, v in watch.seen]
    assert log[0]['validation/main/loss'] != log[1]['validation/main/loss']
    with open(os.path.join(str(tmp_path), 'log')) as f:
        assert f.read().count('"iteration": 0') == 1


def test_print_report_prints_the_iteration_0_row(tmp_path):
    trainer, _, out = _mnist_like_trainer(tmp_path)
    trainer.run()
    rows = [line.replace('\033[J', '').split() for line in out.getvalue().splitlines()]
    assert rows[0] == ['epoch', 'iteration', 'main/loss', 'validation/main/loss']
    assert [r[:2] for r in rows[1:]] == [['0', '0'], ['1', '5'], ['2', '10']]
    assert len(rows[1]) == 3  # no main/loss before training: the column is blank


def test_autoload_resume_keeps_iteration_0_entry_and_skips_before_training_calls(
        tmp_path):
    trainer, _, _ = _mnist_like_trainer(tmp_path, stop=(2, 'epoch'), autoload=True)
    trainer.run()
    first = trainer.get_extension('LogReport').log

    resumed, watch, out = _mnist_like_trainer(tmp_path, stop=(3, 'epoch'), autoload=True)
    resumed.run()
    log = resumed.get_extension('LogReport').log
    assert [e['epoch'] for e in log] == [0, 1, 2, 3]
    assert log[:3] == first
    # after a resume (iteration 10) the before-training calls do not happen: the
    # first evaluation of the resumed run is the one at the end of epoch 3
    assert [it for it, _ in watch.seen] == [15]
    assert log[3]['validation/main/loss'] == watch.seen[0][1]
    printed = [line.replace('\033[J', '').split()[:1]
               for line in out.getvalue().splitlines()[1:]]
    assert printed == [['0'], ['1'], ['2'], ['3']]  # PrintReport prints the whole log


def test_resume_from_snapshot_does_not_call_before_training_extensions(tmp_path):
    calls = []
    trainer = get_trainer_with_mock_updater((4, 'iteration'))
    trainer.out = str(tmp_path)
    trainer.updater.iteration = 2  # as after loading a snapshot
    trainer.extend(lambda t: calls.append(t.updater.iteration), name='rec',
                   trigger=(1, 'iteration'), call_before_training=True)
    trainer.run()
    assert calls == [3, 4]


def test_before_training_calls_get_their_own_observation(tmp_path):
    seen = []

    def reporter_ext(trainer):
        minichainer.report({'x': 1.0})

    def reader(trainer):
        seen.append(dict(trainer.observation))

    trainer = get_trainer_with_mock_updater((1, 'iteration'))
    trainer.out = str(tmp_path)
    trainer.extend(reporter_ext, priority=training.PRIORITY_WRITER,
                   call_before_training=True)
    trainer.extend(reader, call_before_training=True)
    trainer.run()
    assert seen == [{'x': 1.0}, {'x': 1.0}]
    assert trainer.observation == {'x': 1.0}  # the last iteration's, a new dict


class _CountingTrigger:
    def __init__(self):
        self.calls = []

    def __call__(self, trainer):
        self.calls.append(trainer.updater.iteration)
        return trainer.updater.iteration % 2 == 0


def test_log_report_does_not_consult_its_trigger_before_training(tmp_path):
    trigger = _CountingTrigger()
    log = extensions.LogReport(trigger=trigger, filename=None)
    trainer = get_trainer_with_mock_updater((4, 'iteration'))
    trainer.out = str(tmp_path)
    trainer.extend(lambda t: minichainer.report({'v': float(t.updater.iteration)}),
                   name='v', priority=training.PRIORITY_WRITER, call_before_training=True)
    trainer.extend(log, call_before_training=True)
    trainer.run()
    assert trigger.calls == [1, 2, 3, 4]
    assert [(e['iteration'], e['v']) for e in log.log] == [(0, 0.0), (2, 1.5), (4, 3.5)]


def test_log_report_without_call_before_training_is_unchanged(tmp_path):
    trainer, model = _models.make_trainer(tmp_path, stop=(2, 'epoch'), batch_size=10)
    trainer.extend(extensions.Evaluator(_val_iter(), model), call_before_training=True)
    log = extensions.LogReport()
    trainer.extend(log)
    trainer.run()
    assert [e['epoch'] for e in log.log] == [1, 2]


def test_plot_report_plots_the_iteration_0_point(tmp_path):
    pytest.importorskip('matplotlib')
    trainer, model = _models.make_trainer(tmp_path, stop=(2, 'epoch'), batch_size=10)
    trainer.extend(extensions.Evaluator(_val_iter(), model), call_before_training=True)
    plot = extensions.PlotReport(['main/loss', 'validation/main/loss'], 'epoch',
                                 filename='loss.png')
    trainer.extend(plot, call_before_training=True)
    log = extensions.LogReport()
    trainer.extend(log, call_before_training=True)
    trainer.run()
    assert os.path.exists(os.path.join(str(tmp_path), 'loss.png'))
    # the plotted points, as PlotReport serializes them (Chainer's key and layout)
    s = npz.DictionarySerializer()
    plot.serialize(s)
    import json
    data = json.loads(str(s.target['_plot_loss.png']))
    assert [x for x, _ in data['validation/main/loss']] == [0, 1, 2]
    assert [x for x, _ in data['main/loss']] == [1, 2]
    assert [y for _, y in data['validation/main/loss']] == [
        e['validation/main/loss'] for e in log.log]


def test_fail_on_nonnumber_and_parameter_statistics_before_training(tmp_path):
    # Parameters' gradients are NaN-filled before the first backward: the iteration-0
    # call must neither stop training nor fail.
    trainer, model = _models.make_trainer(tmp_path, stop=(1, 'epoch'), batch_size=10)
    model(numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32))
    trainer.extend(extensions.FailOnNonNumber(), call_before_training=True)
    trainer.extend(extensions.ParameterStatistics(model.predictor), call_before_training=True)
    log = extensions.LogReport()
    trainer.extend(log, call_before_training=True)
    trainer.run()
    assert [e['epoch'] for e in log.log] == [0, 1]
    # ParameterStatistics consults its own (1, 'epoch') trigger at iteration 0 too, as
    # in Chainer: it accumulates then and reports at the end of epoch 1
    assert 'predictor/l1/W/data/mean' not in log.log[0]
    assert 'predictor/l1/W/data/mean' in log.log[1]
    assert 'main/loss' not in log.log[0]
