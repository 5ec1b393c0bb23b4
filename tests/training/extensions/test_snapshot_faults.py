"""Fault tests of snapshot writing: failed background writes reach the training loop,
one temporary file per write, stale temporaries are cleaned, bad arguments named."""
import errno
import os
import signal
import subprocess
import sys
import time

import numpy
import pytest

from minichainer import serializers
from minichainer.utils import atomic_write as _atomic
from minichainer.training import extensions
from minichainer.training.extensions import snapshot_writers

from .. import _models

_BACKGROUND_WRITERS = [
    snapshot_writers.ThreadWriter, snapshot_writers.ProcessWriter,
    snapshot_writers.ThreadQueueWriter, snapshot_writers.ProcessQueueWriter,
]


def disk_full_savefun(path, obj):
    """A save function on a full disk (module level: picklable for the queue writers)."""
    with open(path, 'wb') as f:
        f.write(b'PK\x03\x04')
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def permission_denied_savefun(path, obj):
    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)


def killed_savefun(path, obj):
    os.kill(os.getpid(), signal.SIGKILL)


def _writer(writer_cls, savefun):
    return writer_cls(savefun=savefun)


def _temps(out):
    return sorted(n for n in os.listdir(str(out)) if n.endswith('.tmp'))


@pytest.mark.parametrize('writer_cls', _BACKGROUND_WRITERS)
def test_full_disk_in_background_writer_raises_in_training_loop(tmp_path, writer_cls):
    trainer, _ = _models.make_trainer(tmp_path, stop=(5, 'iteration'))
    trainer.extend(extensions.snapshot(writer=_writer(writer_cls, disk_full_savefun)),
                   trigger=(2, 'iteration'))
    with pytest.raises(snapshot_writers.SnapshotWriteError) as info:
        trainer.run(show_loop_exception_msg=False)
    message = str(info.value)
    assert 'snapshot_iter_2' in message
    assert 'No space left on device' in message and 'OSError' in message
    assert info.value.path == os.path.join(str(tmp_path), 'snapshot_iter_2')
    cause = info.value.__cause__
    assert isinstance(cause, OSError) and cause.errno == errno.ENOSPC
    # Nothing under a snapshot name, and the failed write left no temporary file.
    assert not [n for n in os.listdir(str(tmp_path)) if n.startswith('snapshot_iter_')]
    assert _temps(tmp_path) == []


@pytest.mark.parametrize('writer_cls', [snapshot_writers.ThreadWriter,
                                        snapshot_writers.ProcessQueueWriter])
def test_failure_is_raised_at_the_next_snapshot(tmp_path, writer_cls):
    # Raised when the writer is called again, not only at the end of training.
    trainer, _ = _models.make_trainer(tmp_path, stop=(40, 'iteration'))
    trainer.extend(extensions.snapshot(
        writer=_writer(writer_cls, permission_denied_savefun)), trigger=(2, 'iteration'))
    with pytest.raises(snapshot_writers.SnapshotWriteError,
                       match='snapshot_iter_2.*PermissionError') as info:
        trainer.run(show_loop_exception_msg=False)
    assert trainer.updater.iteration < 40  # training stopped at a later snapshot
    assert isinstance(info.value.__cause__, PermissionError)


def test_unserializable_target_in_thread_writer(tmp_path):
    class Holder:
        def serialize(self, serializer):
            serializer('value', {'not': 'an array'})  # becomes an object array

    trainer, _ = _models.make_trainer(tmp_path, stop=(2, 'iteration'))
    trainer.extend(extensions.snapshot_object(Holder(), 'holder_{.updater.iteration}',
                                              writer=snapshot_writers.ThreadWriter()),
                   trigger=(1, 'iteration'))
    with pytest.raises(snapshot_writers.SnapshotWriteError,
                       match=r"holder_1.*TypeError.*'value'"):
        trainer.run(show_loop_exception_msg=False)


def test_killed_writer_process_is_reported(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(3, 'iteration'))
    trainer.extend(extensions.snapshot(
        writer=snapshot_writers.ProcessWriter(savefun=killed_savefun)),
        trigger=(2, 'iteration'))
    with pytest.raises(snapshot_writers.SnapshotWriteError,
                       match='snapshot_iter_2.*killed by signal SIGKILL'):
        trainer.run(show_loop_exception_msg=False)


def test_killed_queue_writer_process_is_reported(tmp_path):
    writer = snapshot_writers.ProcessQueueWriter(savefun=killed_savefun)
    trainer, _ = _models.make_trainer(tmp_path, stop=(3, 'iteration'))
    trainer.extend(extensions.snapshot(writer=writer), trigger=(2, 'iteration'))
    with pytest.raises(snapshot_writers.SnapshotWriteError,
                       match='writer process was killed by signal SIGKILL'):
        trainer.run(show_loop_exception_msg=False)


def test_writer_error_does_not_hide_the_loop_exception(tmp_path, capsys):
    class Boom(Exception):
        pass

    def boom(trainer):
        if trainer.updater.iteration == 3:
            raise Boom()

    trainer, _ = _models.make_trainer(tmp_path, stop=(10, 'iteration'))
    trainer.extend(extensions.snapshot(
        writer=snapshot_writers.ThreadWriter(savefun=disk_full_savefun)),
        trigger=(2, 'iteration'))
    trainer.extend(boom, trigger=(1, 'iteration'))
    with pytest.raises(Boom):
        trainer.run(show_loop_exception_msg=False)
    assert 'snapshot_iter_2' in capsys.readouterr().err


def test_simple_writer_failure_raises_at_once(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(5, 'iteration'))
    trainer.extend(extensions.snapshot(savefun=disk_full_savefun),
                   trigger=(2, 'iteration'))
    with pytest.raises(OSError) as info:
        trainer.run(show_loop_exception_msg=False)
    assert info.value.errno == errno.ENOSPC
    assert trainer.updater.iteration == 2
    assert _temps(tmp_path) == []


def test_unpicklable_task_of_process_queue_writer_is_refused(tmp_path):
    writer = snapshot_writers.ProcessQueueWriter(savefun=lambda path, obj: None)
    try:
        with pytest.raises(TypeError, match='ProcessQueueWriter.*picklable'):
            writer('snap', str(tmp_path), {'a': numpy.zeros(1)})
    finally:
        writer.finalize()


@pytest.mark.parametrize('writer_cls', [
    snapshot_writers.SimpleWriter, snapshot_writers.ThreadWriter,
    snapshot_writers.ProcessWriter, snapshot_writers.ThreadQueueWriter,
    snapshot_writers.ProcessQueueWriter])
def test_retention_and_temp_cleanup_work_with_every_writer(tmp_path, writer_cls):
    dead = _dead_pid()
    stale = '.snapshot_iter_1.mc-{}-abcdefgh.tmp'.format(dead)
    (tmp_path / stale).write_bytes(b'partial')
    trainer, _ = _models.make_trainer(tmp_path, stop=(8, 'iteration'))
    trainer.extend(extensions.snapshot(writer=writer_cls(), n_retains=2),
                   trigger=(2, 'iteration'))
    trainer.run()
    names = sorted(os.listdir(str(tmp_path)))
    assert [n for n in names if n.startswith('snapshot_iter_')] == [
        'snapshot_iter_6', 'snapshot_iter_8']
    assert _temps(tmp_path) == []


def _dead_pid():
    proc = subprocess.Popen([sys.executable, '-c', 'pass'])
    proc.wait()
    return proc.pid


@pytest.mark.parametrize('save', ['save_npz', 'save_hdf5'])
def test_one_temporary_file_per_write(tmp_path, save):
    if save == 'save_hdf5':
        pytest.importorskip('h5py')
    seen = []

    def spying_savefun(path, obj):
        getattr(serializers, save)(path, obj)
        seen.append(_temps(tmp_path))

    trainer, _ = _models.make_trainer(tmp_path, stop=(2, 'iteration'))
    trainer.extend(extensions.snapshot(savefun=spying_savefun), trigger=(1, 'iteration'))
    trainer.run()
    assert len(seen) == 2
    for temps in seen:
        assert len(temps) == 1
        assert temps[0].startswith('.snapshot_iter_')
        assert '.mc-{}-'.format(os.getpid()) in temps[0]
    assert _temps(tmp_path) == []


def test_stale_temporaries_are_removed_when_a_snapshot_completes(tmp_path):
    dead = _dead_pid()
    ours = [
        '.snapshot_iter_3.mc-{}-abcdefgh.tmp'.format(dead),    # a killed writer
        '.snapshot_iter_3.mc-{}-zzzzzzzz.tmp'.format(os.getpid()),  # not in use here
        '.snapshot_iter_5.k2j4h6g8.tmp',                       # earlier versions
        '..snapshot_iter_5.k2j4h6g8.tmp.a1b2c3d4.tmp',
    ]
    kept = [
        '.snapshot_iter_3.mc-1-abcdefgh.tmp',   # its writer (pid 1) is alive
        '.snapshot_iter_3.tmp',                 # not minichainer's name
        '.snapshot_iter_3.swp',
        '.model_3.mc-{}-abcdefgh.tmp'.format(dead),  # another name pattern
        'notes.tmp',
    ]
    for name in ours + kept:
        (tmp_path / name).write_bytes(b'x')
    trainer, _ = _models.make_trainer(tmp_path, stop=(2, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(2, 'iteration'))
    trainer.run()
    names = set(os.listdir(str(tmp_path)))
    assert 'snapshot_iter_2' in names
    assert not names & set(ours)
    assert set(kept) <= names


def test_autoload_removes_stale_temporaries_and_resumes(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(4, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(2, 'iteration'))
    trainer.run()
    dead = _dead_pid()
    debris = ['.snapshot_iter_6.mc-{}-abcdefgh.tmp'.format(dead),
              '.log.mc-{}-abcdefgh.tmp'.format(dead)]
    foreign = ['.snapshot_iter_6.mc-1-abcdefgh.tmp', '.log.tmp', '.x.abcdefgh.tmp']
    for name in debris + foreign:
        (tmp_path / name).write_bytes(b'PK\x03\x04')
    resumed, _ = _models.make_trainer(tmp_path, stop=(6, 'iteration'), seed=3)
    resumed.extend(extensions.snapshot(autoload=True), trigger=(100, 'iteration'))
    resumed.run()
    names = set(os.listdir(str(tmp_path)))
    assert resumed.updater.iteration == 6
    assert not names & set(debris)
    assert set(foreign) <= names


def test_parse_temp_name():
    assert _atomic.parse_temp_name('.snapshot_iter_3.mc-42-abcdefgh.tmp') == (
        'snapshot_iter_3', 42)
    assert _atomic.parse_temp_name('.loss.mc-42-abcdefgh.tmp.png') == ('loss', 42)
    assert _atomic.parse_temp_name('.snapshot_iter_3.abcdefgh.tmp') == (
        'snapshot_iter_3', None)
    assert _atomic.parse_temp_name('..snapshot_iter_3.abcdefgh.tmp.a1b2c3d4.tmp') == (
        'snapshot_iter_3', None)
    for name in ('.snapshot_iter_3.tmp', 'snapshot_iter_3', '.a.mc-x-abcdefgh.tmp',
                 '.a.ABCDEFGH.tmp'):
        assert _atomic.parse_temp_name(name) is None


@pytest.mark.parametrize('kwargs,match', [
    ({'n_retains': '2'}, "n_retains must be an int.*'2'.*str"),
    ({'n_retains': 2.0}, 'n_retains must be an int'),
    ({'n_retains': True}, 'n_retains must be an int'),
    ({'filename': 3}, 'filename must be a str'),
    ({'condition': 'yes'}, 'condition must be a callable'),
    ({'writer': 'w'}, 'writer must be a callable'),
    ({'savefun': 1}, 'savefun must be a callable'),
])
def test_snapshot_bad_arguments(kwargs, match):
    with pytest.raises(TypeError, match=match):
        extensions.snapshot(**kwargs)


def test_snapshot_object_bad_n_retains():
    with pytest.raises(TypeError, match='n_retains'):
        extensions.snapshot_object(object(), 'model', n_retains='3')


def test_killed_training_process_leaves_no_writer_processes(tmp_path, child_processes):
    # A ProcessWriter busy writing and an idle ProcessQueueWriter consumer exit by
    # themselves after kill -9 of the training process.
    script = '''
import multiprocessing, time
from minichainer.training.extensions import snapshot_writers

def slow_save(path, obj):
    time.sleep(600)

queue_writer = snapshot_writers.ProcessQueueWriter()
writer = snapshot_writers.ProcessWriter(savefun=slow_save)
writer('snap', {out!r}, {{}})
print(' '.join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
time.sleep(600)
'''.format(out=str(tmp_path))
    pids = child_processes.kill_after_first_line(script, 2)
    assert child_processes.wait_gone(pids) == []
