"""TensorBoardReport, read back with TensorBoard's own event reader."""
import os
import subprocess
import sys
import textwrap
import time
import warnings

import numpy
import pytest

from minichainer import reporter
from minichainer.training import extensions

from .. import _models


@pytest.fixture(autouse=True, scope='module')
def _needs_tensorboard():
    # Imported when the tests run, not at collection (tensorboardX imports torch when
    # it is installed, which is slow).
    global event_accumulator
    pytest.importorskip('tensorboardX')
    event_accumulator = pytest.importorskip(
        'tensorboard.backend.event_processing.event_accumulator')


event_accumulator = None

_BOOKKEEPING = ('epoch', 'iteration', 'elapsed_time')


def _read(path):
    """Every scalar and histogram TensorBoard shows for the run at ``path``."""
    acc = event_accumulator.EventAccumulator(
        str(path), size_guidance={'scalars': 0, 'histograms': 0})
    acc.Reload()
    return acc


def _scalars(acc):
    return {tag: [(e.step, e.value) for e in acc.Scalars(tag)]
            for tag in acc.Tags()['scalars']}


def _expected(log, keys=None):
    """What the LogReport log says TensorBoard should show: ``tag -> [(step, value)]``
    with the values rounded to float32 as event files store them."""
    out = {}
    for entry in log:
        for key, value in entry.items():
            if key in _BOOKKEEPING or (keys is not None and key not in keys):
                continue
            out.setdefault(key, []).append(
                (entry['iteration'], float(numpy.float32(value))))
    return out


def test_event_files_hold_the_log_report_values(tmp_path):
    start = time.time()
    trainer, _ = _models.make_trainer(tmp_path, stop=(3, 'epoch'), extensions=[
        extensions.LogReport(trigger=(4, 'iteration')),
        extensions.TensorBoardReport(trigger=(4, 'iteration'))])
    trainer.run()
    end = time.time()
    log = trainer.get_extension('LogReport').log
    assert len(log) == 5

    acc = _read(tmp_path / 'tb')
    scalars = _scalars(acc)
    assert set(scalars) == {'main/loss', 'main/accuracy'}
    assert scalars == _expected(log)
    wall_times = [e.wall_time for e in acc.Scalars('main/loss')]
    assert wall_times == sorted(wall_times)
    assert start <= wall_times[0] and wall_times[-1] <= end


def test_keys_trigger_postprocess_and_logdir(tmp_path):
    def postprocess(entry):
        entry['main/loss_x2'] = entry['main/loss'] * 2

    logdir = tmp_path / 'elsewhere'
    trainer, _ = _models.make_trainer(tmp_path / 'out', stop=(2, 'epoch'), extensions=[
        extensions.LogReport(keys=['main/loss'], trigger=(1, 'epoch'),
                             postprocess=postprocess),
        extensions.TensorBoardReport(keys=['main/loss'], logdir=str(logdir),
                                     postprocess=postprocess)])
    trainer.run()
    assert not os.path.exists(tmp_path / 'out' / 'tb')
    scalars = _scalars(_read(logdir))
    assert set(scalars) == {'main/loss', 'main/loss_x2'}
    assert scalars == _expected(trainer.get_extension('LogReport').log)


def test_non_numeric_observation_is_skipped_with_one_warning(tmp_path):
    def report_note(trainer):
        reporter.report({'note': 'hello', 'vector': numpy.arange(3.0)})

    trainer, _ = _models.make_trainer(tmp_path, stop=(3, 'epoch'))
    trainer.extend(report_note, priority=500)
    trainer.extend(extensions.TensorBoardReport())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        trainer.run()
    messages = [str(w.message) for w in caught if 'TensorBoardReport' in str(w.message)]
    assert len(messages) == 1
    assert "'note'" in messages[0] and "'vector'" in messages[0]
    assert set(_scalars(_read(tmp_path / 'tb'))) == {'main/loss', 'main/accuracy'}


def test_unwritable_logdir_raises_at_initialize_naming_it(tmp_path):
    blocker = tmp_path / 'a_file'
    blocker.write_text('not a directory')
    logdir = str(blocker / 'tb')
    trainer, _ = _models.make_trainer(tmp_path, stop=(3, 'epoch'))
    ext = extensions.TensorBoardReport(logdir=logdir)
    with pytest.raises(OSError, match='logdir .*' + repr(logdir).replace('\\', '\\\\')):
        ext.initialize(trainer)
    trainer.extend(ext)
    with pytest.raises(OSError, match='TensorBoardReport: cannot write'):
        trainer.run(show_loop_exception_msg=False)
    assert trainer.updater.iteration == 0


def test_bad_arguments_name_themselves():
    with pytest.raises(TypeError, match='logdir'):
        extensions.TensorBoardReport(logdir=3)
    with pytest.raises(TypeError, match='histograms'):
        extensions.TensorBoardReport(histograms='model')


def test_histograms_of_parameters_and_gradients(tmp_path):
    trainer, model = _models.make_trainer(tmp_path, stop=(2, 'epoch'))
    trainer.extend(extensions.TensorBoardReport(histograms=model))
    trainer.run()
    acc = _read(tmp_path / 'tb')
    tags = set(acc.Tags()['histograms'])
    assert tags == {'predictor/{}/{}/{}'.format(layer, p, attr)
                    for layer in ('l1', 'l2') for p in ('W', 'b')
                    for attr in ('data', 'grad')}
    last = acc.Histograms('predictor/l1/W/data')[-1]
    weights = model.predictor.l1.W.array
    assert last.step == trainer.updater.iteration
    assert last.histogram_value.num == weights.size
    assert last.histogram_value.min == pytest.approx(float(weights.min()))
    assert last.histogram_value.max == pytest.approx(float(weights.max()))


_KILLED_RUN = textwrap.dedent('''
    import os, signal, sys
    sys.modules['torch'] = None  # tensorboardX imports torch when it can: keep this fast
    sys.path.insert(0, {root!r})
    from minichainer.training import extensions
    from tests.training import _models

    trainer, _ = _models.make_trainer({out!r}, stop=(100, 'epoch'))
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.extend(extensions.TensorBoardReport(trigger=(1, 'iteration')))
    trainer.extend(extensions.snapshot(autoload=True), trigger=(5, 'iteration'))

    def kill(trainer):
        if trainer.updater.iteration == 13:
            os.kill(os.getpid(), signal.SIGKILL)
    trainer.extend(kill, priority=-1000)
    trainer.run()
''')


def _resumable(out, stop):
    trainer, _ = _models.make_trainer(out, stop=stop)
    trainer.extend(extensions.LogReport(trigger=(1, 'iteration')))
    trainer.extend(extensions.TensorBoardReport(trigger=(1, 'iteration')))
    trainer.extend(extensions.snapshot(autoload=True), trigger=(5, 'iteration'))
    return trainer


def test_snapshot_kill_autoload_writes_each_step_once(tmp_path):
    out = tmp_path / 'result'
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
        os.path.abspath(__file__)))))
    script = tmp_path / 'train.py'
    script.write_text(_KILLED_RUN.format(root=root, out=str(out)))
    proc = subprocess.run([sys.executable, str(script)], cwd=root, timeout=120,
                          capture_output=True)
    assert proc.returncode == -9, proc.stderr.decode()
    (killed_file,) = os.listdir(out / 'tb')
    # The killed run had written steps 11..13, after its last snapshot (iteration 10).
    killed_steps = [s for s, _ in _scalars(_read(out / 'tb' / killed_file))['main/loss']]
    assert killed_steps == list(range(1, 14))

    trainer = _resumable(out, stop=(20, 'iteration'))
    trainer.run()
    assert len(os.listdir(out / 'tb')) == 2
    scalars = _scalars(_read(out / 'tb'))
    for tag, points in scalars.items():
        assert [s for s, _ in points] == list(range(1, 21)), tag

    # The points equal those of a run that was never interrupted.
    reference = _resumable(tmp_path / 'reference', stop=(20, 'iteration'))
    reference.run()
    assert scalars == _expected(reference.get_extension('LogReport').log)
    assert scalars == _scalars(_read(tmp_path / 'reference' / 'tb'))
