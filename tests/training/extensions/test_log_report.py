import io
import json
import os

import pytest

from minichainer.serializers import npz
from minichainer.testing.training import get_trainer_with_mock_updater
from minichainer.training import extensions


def _trainer_with_values(tmp_path, values, iter_per_epoch=2, stop=None, exts=()):
    """A mock trainer reporting ``values[i]`` at iteration ``i + 1``."""
    stop = stop or (len(values), 'iteration')
    trainer = get_trainer_with_mock_updater(stop, iter_per_epoch=iter_per_epoch)
    trainer.out = str(tmp_path)

    def report(trainer):
        trainer.observation.update(values[trainer.updater.iteration - 1])
    trainer.extend(report, priority=1000, name='report')
    for e in exts:
        trainer.extend(e)
    return trainer


def test_log_entries_and_json_layout(tmp_path):
    values = [{'main/loss': 1.0, 'main/acc': 0.5}, {'main/loss': 3.0, 'main/acc': 0.25},
              {'main/loss': 2.0}, {'main/loss': 4.0, 'main/acc': 1.0}]
    log_report = extensions.LogReport()
    trainer = _trainer_with_values(tmp_path, values, exts=[log_report])
    trainer.run()
    log = log_report.log
    assert [list(e) for e in log] == [
        ['main/loss', 'main/acc', 'epoch', 'iteration', 'elapsed_time'],
        ['main/loss', 'main/acc', 'epoch', 'iteration', 'elapsed_time']]
    assert log[0]['main/loss'] == 2.0 and log[0]['main/acc'] == 0.375
    assert log[1]['main/loss'] == 3.0 and log[1]['main/acc'] == 1.0
    assert [(e['epoch'], e['iteration']) for e in log] == [(1, 2), (2, 4)]
    with open(os.path.join(str(tmp_path), 'log')) as f:
        text = f.read()
    assert json.loads(text) == log
    # Chainer writes json.dump(log, f, indent=4)
    assert text == json.dumps(log, indent=4)
    assert text.startswith('[\n    {\n        "main/loss": 2.0,\n        "main/acc": 0.375,')
    assert not [n for n in os.listdir(str(tmp_path)) if n.endswith('.tmp')]


def test_keys_postprocess_filename_and_trigger(tmp_path):
    values = [{'a': float(i), 'b': 1.0} for i in range(6)]

    def post(entry):
        entry['double_a'] = entry['a'] * 2

    log_report = extensions.LogReport(keys=['a'], trigger=(3, 'iteration'),
                                      postprocess=post, filename='log_{iteration}')
    trainer = _trainer_with_values(tmp_path, values, exts=[log_report])
    trainer.run()
    assert [e['a'] for e in log_report.log] == [1.0, 4.0]
    assert [e['double_a'] for e in log_report.log] == [2.0, 8.0]
    assert 'b' not in log_report.log[0]
    assert sorted(os.listdir(str(tmp_path))) == ['log_3', 'log_6']


def test_no_file_and_log_name_alias(tmp_path):
    trainer = _trainer_with_values(tmp_path, [{'x': 1.0}] * 2,
                                   exts=[extensions.LogReport(log_name=None)])
    trainer.run()
    assert os.listdir(str(tmp_path)) == []
    assert extensions.LogReport(log_name='other')._log_name == 'other'
    with pytest.raises(TypeError, match="'bogus'"):
        extensions.LogReport(bogus=1)


def test_serialize_resumes_log_and_summary(tmp_path):
    values = [{'x': float(i)} for i in range(4)]
    lr = extensions.LogReport(trigger=(4, 'iteration'))
    trainer = _trainer_with_values(tmp_path, values, exts=[lr])
    trainer.run()
    lr2 = extensions.LogReport(trigger=(2, 'iteration'))
    t2 = _trainer_with_values(tmp_path, values[:1], exts=[lr2])
    t2.run()  # one value accumulated, nothing emitted
    s = npz.DictionarySerializer()
    lr2.serialize(s)
    lr.serialize(npz.DictionarySerializer())  # works on a finished one too
    lr3 = extensions.LogReport(trigger=(2, 'iteration'))
    lr3.serialize(npz.NpzDeserializer(s.target))
    assert lr3._summary.compute_mean() == {'x': 0.0}
    s2 = npz.DictionarySerializer()
    lr.serialize(s2)
    lr4 = extensions.LogReport()
    lr4.serialize(npz.NpzDeserializer(s2.target))
    assert lr4.log == lr.log


def test_print_report_layout(tmp_path):
    out = io.StringIO()
    values = [{'main/loss': 0.5, 'validation/main/accuracy': 0.875},
              {'main/loss': 0.25}]
    entries = ['epoch', 'main/loss', 'validation/main/accuracy', 'missing']
    trainer = _trainer_with_values(
        tmp_path, values, iter_per_epoch=1,
        exts=[extensions.LogReport(), extensions.PrintReport(entries, out=out)])
    with pytest.warns(UserWarning, match="'missing' never observed") as record:
        trainer.run()
    assert len(record) == 1       # once, though every row lacks it
    assert "'main/loss'" in str(record[0].message)    # the keys that were observed
    header = 'epoch       main/loss   validation/main/accuracy  missing   \n'
    row1 = ('\033[J' + '1           0.5         0.875                     '
            + ' ' * 12 + '\n')
    row2 = ('\033[J' + '2           0.25        ' + ' ' * 26 + ' ' * 12 + '\n')
    assert out.getvalue() == header + row1 + row2


def test_print_report_with_own_log_report_and_serialize(tmp_path):
    out = io.StringIO()
    own = extensions.LogReport(trigger=(1, "iteration"), log_name=None)
    pr = extensions.PrintReport(['iteration'], log_report=own, out=out)
    trainer = _trainer_with_values(tmp_path, [{}] * 3, exts=[pr])
    trainer.run()
    assert out.getvalue().count('\033[J') == 3
    s = npz.DictionarySerializer()
    pr.serialize(s)
    assert '_log_report/_log' in s.target
    bad = extensions.PrintReport(['x'], log_report=3, out=out)
    with pytest.raises(TypeError, match='log_report'):
        bad(trainer)


def test_print_report_waits_for_an_epoch_before_calling_a_key_unobserved(tmp_path):
    # Validation keys arrive only at the epoch's end: the rows before lack them.
    values = [{'main/loss': 1.0}, {'main/loss': 0.5, 'validation/main/loss': 0.7}] * 2
    trainer = _trainer_with_values(
        tmp_path, values, iter_per_epoch=2,
        exts=[extensions.LogReport(trigger=(1, 'iteration')),
              extensions.PrintReport(['main/loss', 'validation/main/loss'],
                                     out=io.StringIO())])
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        trainer.run()


def test_print_report_checks_at_the_end_of_a_run_shorter_than_an_epoch(tmp_path):
    values = [{'main/loss': 1.0}] * 2
    trainer = _trainer_with_values(
        tmp_path, values, iter_per_epoch=10,
        exts=[extensions.LogReport(trigger=(1, 'iteration')),
              extensions.PrintReport(['main/loss', 'no/such/key'], out=io.StringIO())])
    with pytest.warns(UserWarning, match="'no/such/key' never observed"):
        trainer.run()
