import os
import time
import warnings

import numpy
import pytest

from minichainer import serializers
from minichainer.training import extensions
from minichainer.training.extensions import snapshot_writers

from .. import _models


def _snapshots(out):
    return sorted((n for n in os.listdir(str(out)) if n.startswith('snapshot_iter_')),
                  key=lambda n: int(n.rsplit('_', 1)[1]))


@pytest.mark.parametrize('writer_cls', [
    snapshot_writers.SimpleWriter, snapshot_writers.ThreadWriter,
    snapshot_writers.ThreadQueueWriter, snapshot_writers.ProcessWriter,
    snapshot_writers.ProcessQueueWriter,
])
def test_writers_produce_loadable_snapshots(tmp_path, writer_cls):
    trainer, model = _models.make_trainer(tmp_path, stop=(6, 'iteration'))
    writer = writer_cls()
    trainer.extend(extensions.snapshot(writer=writer), trigger=(3, 'iteration'))
    trainer.run()
    assert _snapshots(tmp_path) == ['snapshot_iter_3', 'snapshot_iter_6']
    other, model2 = _models.make_trainer(tmp_path / 'o', seed=4)
    serializers.load_npz(str(tmp_path / 'snapshot_iter_6'), other)
    assert other.updater.iteration == 6
    for (n, p), (_, q) in zip(model.namedparams(), model2.namedparams()):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=n)


def test_n_retains_keeps_newest(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(10, 'iteration'))
    trainer.extend(extensions.snapshot(n_retains=2), trigger=(2, 'iteration'))
    trainer.run()
    assert _snapshots(tmp_path) == ['snapshot_iter_8', 'snapshot_iter_10']


def test_autoload_picks_newest_complete(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(6, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(3, 'iteration'))
    trainer.run()
    time.sleep(0.01)
    # A truncated file under a snapshot name and a leftover temporary file.
    (tmp_path / 'snapshot_iter_9').write_bytes(b'PK\x03\x04 truncated')
    (tmp_path / '.snapshot_iter_12.abc.tmp').write_bytes(b'PK\x03\x04')
    resumed, _ = _models.make_trainer(tmp_path, stop=(8, 'iteration'), seed=3)
    resumed.extend(extensions.snapshot(autoload=True), trigger=(3, 'iteration'))
    with pytest.warns(RuntimeWarning) as record:
        resumed.run()
    assert resumed.updater.iteration == 8  # resumed from 6, then two more updates
    messages = [str(w.message) for w in record if 'autoload' in str(w.message)]
    assert len(messages) == 1
    assert 'snapshot_iter_9' in messages[0] and 'truncated' in messages[0]
    assert "resuming from 'snapshot_iter_6'" in messages[0]


def test_autoload_names_a_damaged_member_and_starting_fresh(tmp_path):
    import zipfile
    path = tmp_path / 'snapshot_iter_5'
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_STORED) as z:
        z.writestr('updater/iteration.npy', b'x' * 64)
    data = bytearray(path.read_bytes())
    data[data.index(b'x' * 64)] = ord('y')   # the member's bytes no longer match its CRC
    path.write_bytes(bytes(data))
    trainer, _ = _models.make_trainer(tmp_path, stop=(2, 'iteration'))
    trainer.extend(extensions.snapshot(autoload=True))
    with pytest.warns(RuntimeWarning, match=r"updater/iteration.npy.*CRC.*from scratch"):
        trainer.run()
    assert trainer.updater.iteration == 2


def test_autoload_is_silent_when_the_newest_snapshot_is_complete(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(3, 'iteration'))
    trainer.extend(extensions.snapshot(), trigger=(3, 'iteration'))
    trainer.run()
    resumed, _ = _models.make_trainer(tmp_path, stop=(4, 'iteration'))
    resumed.extend(extensions.snapshot(autoload=True), trigger=(3, 'iteration'))
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        resumed.run()
    assert resumed.updater.iteration == 4


def test_autoload_without_snapshot_starts_fresh(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(2, 'iteration'))
    trainer.extend(extensions.snapshot(autoload=True))
    trainer.run()
    assert trainer.updater.iteration == 2


def test_snapshot_object_condition_and_callable_filename(tmp_path):
    trainer, model = _models.make_trainer(tmp_path, stop=(4, 'iteration'))
    trainer.extend(extensions.snapshot_object(model, 'model_{.updater.iteration}.npz'),
                   trigger=(2, 'iteration'))
    flags = iter([False, True])
    trainer.extend(extensions.snapshot(condition=lambda: next(flags),
                                       filename=lambda t: 'cond_%d' % t.updater.iteration),
                   trigger=(2, 'iteration'))
    trainer.run()
    names = sorted(os.listdir(str(tmp_path)))
    assert 'model_2.npz' in names and 'model_4.npz' in names
    assert 'cond_4' in names and 'cond_2' not in names
    with numpy.load(str(tmp_path / 'model_4.npz')) as f:
        assert 'predictor/l1/W' in f.files
        numpy.testing.assert_array_equal(f['predictor/l1/W'], model.predictor.l1.W.array)


def test_snapshot_on_error(tmp_path):
    trainer, _ = _models.make_trainer(tmp_path, stop=(10, 'iteration'))
    trainer.extend(extensions.snapshot(snapshot_on_error=True), trigger=(100, 'iteration'))

    def fail(trainer):
        if trainer.updater.iteration == 3:
            raise ValueError('stop')
    trainer.extend(fail)
    with pytest.raises(ValueError):
        trainer.run(show_loop_exception_msg=False)
    assert _snapshots(tmp_path) == ['snapshot_iter_3']


def test_custom_savefun_and_bad_arguments(tmp_path):
    saved = []

    def savefun(path, obj):
        saved.append(sorted(obj)[:1])
        with open(path, 'wb') as f:
            f.write(b'x')
    trainer, _ = _models.make_trainer(tmp_path, stop=(1, 'iteration'))
    trainer.extend(extensions.snapshot(savefun=savefun), trigger=(1, 'iteration'))
    trainer.run()
    assert (tmp_path / 'snapshot_iter_1').read_bytes() == b'x'
    assert saved
    with pytest.raises(TypeError, match='savefun and writer'):
        extensions.snapshot(savefun=savefun, writer=snapshot_writers.SimpleWriter())
    with pytest.raises(TypeError, match="'bogus'"):
        extensions.snapshot(bogus=1)
    ext = extensions.snapshot()
    assert ext.trigger == (1, 'epoch') and ext.priority == -100


def test_failed_write_leaves_no_file(tmp_path):
    def savefun(path, obj):
        with open(path, 'wb') as f:
            f.write(b'partial')
        raise OSError('disk full')
    writer = snapshot_writers.SimpleWriter(savefun=savefun)
    with pytest.raises(OSError, match='disk full'):
        writer('snap', str(tmp_path), {})
    assert os.listdir(str(tmp_path)) == []


@pytest.mark.parametrize('fmt', ['snapshot_iter_{}', 'snapshot_iter_{}.npz',
                                 '{}_snapshot_man_suffix.npz'])
def test_find_snapshot_helpers(tmp_path, fmt):
    from minichainer.training.extensions import _snapshot
    base = time.time()
    for i in range(1, 12):
        p = tmp_path / fmt.format(i)
        p.write_bytes(b'')
        os.utime(str(p), (base + i, base + i))
    for noise in ['dummy-iter3', 'tmpsnapshot_iter_4', '.snapshot_iter_5.x.tmp']:
        (tmp_path / noise).write_bytes(b'')
    files = _snapshot._find_snapshot_files(fmt, str(tmp_path))
    assert sorted(n for _, n in files) == sorted(fmt.format(i) for i in range(1, 12))
    assert _snapshot._find_latest_snapshot(fmt, str(tmp_path)) == fmt.format(11)
    stale = list(_snapshot._find_stale_snapshots(fmt, str(tmp_path), 8))
    assert stale == [fmt.format(i) for i in range(1, 4)]
