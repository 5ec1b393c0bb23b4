"""Every extension's behaviour when registered with ``call_before_training=True``.

Measured against Chainer 7.8.1's ``Trainer.run`` and extensions' source: the
before-training call is an ordinary call of the extension at iteration 0, in its own
observation, so

* ``snapshot`` writes a snapshot at iteration 0;
* the shift extensions count that call in their ``_t`` and set the value for ``t=1``;
* ``observe_value``/``observe_lr`` report into the iteration-0 LogReport entry;
* ``MicroAverage`` and ``ParameterStatistics`` accumulate at iteration 0 (their own
  trigger does not fire then), so the first reported value includes that call;
* ``LogReport`` writes a separate iteration-0 entry and ``PrintReport`` prints it.
"""
import io
import os

import numpy

import minichainer
import minichainer.links as L
from minichainer import training
from minichainer.training import extensions as E


def _trainer(out):
    rng = numpy.random.RandomState(0)
    x = rng.rand(20, 3).astype(numpy.float32)
    t = (x.sum(1) > 1.5).astype(numpy.int32)
    model = L.Classifier(L.Linear(3, 2))
    opt = minichainer.optimizers.MomentumSGD(lr=0.1)
    opt.setup(model)
    it = minichainer.iterators.SerialIterator(
        minichainer.datasets.TupleDataset(x, t), 5, shuffle=False)
    updater = training.StandardUpdater(it, opt)
    return training.Trainer(updater, (2, 'epoch'), out=str(out)), model


def test_each_extension_called_before_training_behaves_as_chainer(tmp_path):
    trainer, model = _trainer(tmp_path)
    cbt = dict(call_before_training=True)
    epoch = (1, 'epoch')
    trainer.extend(E.snapshot(filename='s_{.updater.iteration}'), trigger=epoch, **cbt)
    shift = E.ExponentialShift('lr', 0.5)
    trainer.extend(shift, trigger=epoch, **cbt)
    trainer.extend(E.observe_lr(), trigger=epoch, **cbt)
    trainer.extend(E.observe_value('it', lambda t: float(t.updater.iteration)),
                   trigger=epoch, **cbt)
    stats = E.ParameterStatistics(
        model.predictor, statistics={'it': lambda p: float(trainer.updater.iteration)},
        report_grads=False, trigger=epoch, prefix='ps')
    trainer.extend(stats, **cbt)

    def numbers(t):
        minichainer.report({'num': 1.0 + t.updater.iteration, 'den': 2.0})
    trainer.extend(numbers, name='numbers', trigger=(1, 'iteration'),
                   priority=training.PRIORITY_WRITER, **cbt)
    trainer.extend(E.MicroAverage('num', 'den', 'ratio', trigger=epoch),
                   trigger=(1, 'iteration'), **cbt)
    trainer.extend(E.LogReport(trigger=epoch), **cbt)
    printed = io.StringIO()
    trainer.extend(E.PrintReport(['epoch', 'iteration', 'lr', 'ratio'], out=printed),
                   **cbt)
    trainer.run()

    assert sorted(f for f in os.listdir(str(tmp_path)) if f.startswith('s_')) == [
        's_0', 's_4', 's_8']
    assert shift._t == 3  # before training, then after epochs 1 and 2
    log = trainer.get_extension('LogReport').log
    assert [(e['epoch'], e['iteration']) for e in log] == [(0, 0), (1, 4), (2, 8)]
    assert set(log[0]) == {'epoch', 'iteration', 'elapsed_time', 'lr', 'it', 'num', 'den'}
    assert [e['lr'] for e in log] == [0.1, 0.05, 0.025]
    assert [e['it'] for e in log] == [0.0, 4.0, 8.0]
    # MicroAverage: (1+2+3+4+5) / (5*2) includes the iteration-0 call; then 6..9
    assert log[1]['ratio'] == 1.5 and log[2]['ratio'] == 3.75
    # ParameterStatistics: iterations 0..4 averaged into epoch 1, 5..8 into epoch 2
    assert log[1]['ps/predictor/W/data/it'] == 2.0
    assert log[2]['ps/predictor/W/data/it'] == 6.5
    rows = [r.replace('\033[J', '').split() for r in printed.getvalue().splitlines()]
    assert [r[:3] for r in rows[1:]] == [['0', '0', '0.1'], ['1', '4', '0.05'],
                                         ['2', '8', '0.025']]
