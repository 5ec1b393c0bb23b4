"""Smoke test of examples/custom_updater: a GAN with two optimizers, previews, resume."""
import os

import pytest


pytest.importorskip('sklearn')


def test_gan_trains_writes_previews_and_resumes(tmp_path, run_example, read_log):
    out = tmp_path / 'gan'
    args = ('--out', out, '--batchsize', 20, '--snapshot_interval', 2,
            '--display_interval', 2)
    stdout = run_example('custom_updater/train_custom_updater.py', '--iterations', 4, *args)
    assert 'final iteration 4' in stdout
    log = read_log(out / 'log')
    assert [e['iteration'] for e in log] == [2, 4]
    assert all('gen/loss' in e and 'dis/loss' in e for e in log)
    files = os.listdir(out)
    assert 'snapshot_iter_4' in files and 'snapshot_iter_2' not in files
    assert 'gen_iter_4.npz' in files and 'dis_iter_4.npz' in files
    try:
        import PIL  # noqa: F401
    except ImportError:
        assert 'Pillow is not installed' in stdout
    else:
        assert sorted(os.listdir(out / 'preview')) == ['image000002.png', 'image000004.png']

    stdout = run_example('custom_updater/train_custom_updater.py', '--iterations', 6,
                         '--resume', out / 'snapshot_iter_4', *args)
    assert 'final iteration 6' in stdout
    assert [e['iteration'] for e in read_log(out / 'log')] == [2, 4, 6]
