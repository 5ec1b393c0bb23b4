"""Exact resume: a crashed run resumed from its snapshot ends bit-identical."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy
import pytest

from minichainer import serializers
from minichainer import training
from minichainer.training import extensions

from . import _models


class _Crash(Exception):
    pass


def _crash_at(iteration):
    @training.make_extension(trigger=(1, 'iteration'))
    def crash(trainer):
        if trainer.updater.iteration == iteration:
            raise _Crash()
    return crash


def _standard_extensions():
    return [extensions.LogReport(trigger=(3, 'iteration')),
            extensions.ExponentialShift('alpha', 0.9)]


@pytest.mark.parametrize('snapshot_trigger,crash_at', [
    ((1, 'epoch'), 19),        # snapshot at an epoch boundary (iteration 16), crash later
    ((5, 'iteration'), 13),    # snapshot mid-epoch
])
def test_crash_and_resume_is_bit_identical(tmp_path, snapshot_trigger, crash_at):
    # Reference run that never stops.
    ref, ref_model = _models.make_trainer(tmp_path / 'ref', extensions=_standard_extensions())
    ref.run(show_loop_exception_msg=False)
    expected = _models.params_of(ref_model)

    # Run that crashes after a snapshot.
    out = tmp_path / 'crash'
    trainer, _ = _models.make_trainer(out, extensions=_standard_extensions())
    trainer.extend(extensions.snapshot(), trigger=snapshot_trigger)
    trainer.extend(_crash_at(crash_at))
    with pytest.raises(_Crash):
        trainer.run(show_loop_exception_msg=False)
    names = [n for n in os.listdir(out) if n.startswith('snapshot_iter_')]
    assert names

    # A new trainer (different seed: different initial weights and RNG state) resumes.
    resumed, resumed_model = _models.make_trainer(
        out, seed=123, extensions=_standard_extensions())
    resumed.extend(extensions.snapshot(autoload=True), trigger=snapshot_trigger)
    numpy.random.rand(7)  # consume some random numbers before the resume
    resumed.run(show_loop_exception_msg=False)

    got = _models.params_of(resumed_model)
    assert resumed.updater.iteration == ref.updater.iteration
    for name in expected:
        numpy.testing.assert_array_equal(got[name], expected[name], err_msg=name)
    assert resumed.get_extension('LogReport').log[-1]['main/loss'] == \
        ref.get_extension('LogReport').log[-1]['main/loss']


def test_load_npz_resume_without_rng_key_still_works(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(10, 'iteration'))
    trainer.run()
    path = str(tmp_path / 'snap.npz')
    serializers.save_npz(path, trainer)
    with numpy.load(path) as f:
        arrays = {k: f[k] for k in f.files if not k.startswith('_numpy_random_state')}
        assert any(k.startswith('_numpy_random_state') for k in f.files)
    chainer_like = str(tmp_path / 'chainer_like.npz')
    numpy.savez(chainer_like, **arrays)

    other, model = _models.make_trainer(tmp_path / 'o', stop=(20, 'iteration'), seed=5)
    model(numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32))  # lazy init
    numpy.random.seed(42)
    before = numpy.random.get_state()[1].copy()
    serializers.load_npz(chainer_like, other)
    assert other.updater.iteration == 10
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], before)
    other.run()
    assert other.updater.iteration == 20


def test_load_restores_rng_state(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(3, 'iteration'))
    trainer.run()
    path = str(tmp_path / 'snap.npz')
    serializers.save_npz(path, trainer)
    expected = numpy.random.rand(5)
    other, _ = _models.make_trainer(tmp_path / 'o', seed=9)
    serializers.load_npz(path, other)
    numpy.testing.assert_array_equal(numpy.random.rand(5), expected)


def test_missing_key_raises_and_leaves_trainer_unchanged(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(4, 'iteration'))
    trainer.run()
    path = str(tmp_path / 'snap.npz')
    serializers.save_npz(path, trainer)
    with numpy.load(path) as f:
        arrays = {k: f[k] for k in f.files if k != 'updater/model:main/predictor/l2/b'}
    broken = str(tmp_path / 'broken.npz')
    numpy.savez(broken, **arrays)

    other, model = _models.make_trainer(tmp_path / 'o', seed=3)
    model(numpy.zeros((1, 4), numpy.float32), numpy.zeros(1, numpy.int32))  # lazy init
    before = _models.params_of(model)
    with pytest.raises(KeyError, match='predictor/l2/b'):
        serializers.load_npz(broken, other)
    after = _models.params_of(model)
    for name in before:
        numpy.testing.assert_array_equal(after[name], before[name])
    assert other.updater.iteration == 0
    assert other.updater.get_iterator('main').epoch == 0


_KILL_SCRIPT = textwrap.dedent('''
    import os, sys, time
    sys.path.insert(0, {root!r})
    import numpy
    from minichainer import serializers
    from minichainer.training import extensions
    from tests.training import _models

    def slow_save(path, obj):
        it = int(os.path.basename(path).split('.')[1].split('_')[-1])
        if it >= 14:
            with open(path, 'wb') as f:
                f.write(b'PK\\x03\\x04partial')
                f.flush()
            print('WRITING', flush=True)
            time.sleep(60)
        serializers.save_npz(path, obj)

    trainer, _ = _models.make_trainer({out!r}, stop=(100, 'epoch'))
    trainer.extend(extensions.snapshot(savefun=slow_save, n_retains=2),
                   trigger=(2, 'iteration'))
    trainer.run()
''')


def test_kill_during_snapshot_write_then_autoload(tmp_path, child_processes):
    out = tmp_path / 'result'
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    script = tmp_path / 'train.py'
    script.write_text(_KILL_SCRIPT.format(root=root, out=str(out)))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            cwd=root)
    try:
        line = proc.stdout.readline()
        assert line.strip() == b'WRITING'
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        child_processes.reap(proc)

    names = sorted(os.listdir(out))
    complete = [n for n in names if n.startswith('snapshot_iter_')]
    # n_retains=2 kept the two newest complete snapshots; the partial one is hidden,
    # and it is the only temporary file of that write.
    assert complete == ['snapshot_iter_10', 'snapshot_iter_12']
    temps = [n for n in names if n.endswith('.tmp')]
    assert len(temps) == 1 and temps[0].startswith('.snapshot_iter_14.mc-')

    # A partial file under a snapshot name (e.g. a copy interrupted outside
    # minichainer) is skipped by autoload, too, with a warning naming it.
    time.sleep(0.01)
    with open(out / 'snapshot_iter_99', 'wb') as f:
        f.write(b'PK\x03\x04truncated')

    trainer, _ = _models.make_trainer(out, stop=(14, 'iteration'), seed=1)
    trainer.extend(extensions.snapshot(autoload=True), trigger=(2, 'iteration'))
    with pytest.warns(RuntimeWarning, match=r"skipped .*snapshot_iter_99' because it is "
                                            r"truncated"):
        trainer.run()
    assert trainer.updater.iteration == 14
    # autoload removed the killed write's temporary file.
    assert not [n for n in os.listdir(out) if n.endswith('.tmp')]


def test_extension_call_table_is_the_same_after_resume(tmp_path):
    """Triggers with epoch, fractional-epoch and iteration periods fire at the same
    iterations in a resumed run as in an uninterrupted one."""
    def make(out, calls, seed=0):
        trainer, _ = _models.make_trainer(out, stop=(4, 'epoch'), seed=seed)
        for name, trig in [('epoch', (1, 'epoch')), ('half', (0.5, 'epoch')),
                           ('it5', (5, 'iteration'))]:
            def record(t, name=name):
                calls.append((name, t.updater.iteration))
            trainer.extend(record, name=name, trigger=trig)
        trainer.extend(extensions.LogReport(trigger=(0.5, 'epoch')))
        return trainer

    ref_calls = []
    ref = make(tmp_path / 'ref', ref_calls)
    ref.run()

    out = tmp_path / 'crash'
    calls = []
    first = make(out, calls)
    first.extend(extensions.snapshot(), trigger=(9, 'iteration'))
    first.extend(_crash_at(12))
    with pytest.raises(_Crash):
        first.run(show_loop_exception_msg=False)
    resumed_calls = [c for c in calls if c[1] <= 9]
    second = make(out, resumed_calls, seed=7)
    serializers.load_npz(str(out / 'snapshot_iter_9'), second)
    second.run()
    assert resumed_calls == ref_calls
    strip = [{k: v for k, v in e.items() if k != 'elapsed_time'}
             for e in second.get_extension('LogReport').log]
    assert strip == [{k: v for k, v in e.items() if k != 'elapsed_time'}
                     for e in ref.get_extension('LogReport').log]
