"""Smoke test of examples/vae: a custom loss_func/eval_func, image output."""
import os

import pytest


pytest.importorskip('sklearn')


def test_vae_test_mode(tmp_path, run_example, read_log):
    stdout = run_example('vae/train_vae.py', '--test', '--out', tmp_path)
    log = read_log(tmp_path / 'log')
    assert [e['epoch'] for e in log] == [1, 2]
    for entry in log:
        # loss = reconstruction + KL >= reconstruction; both reported by loss_func
        assert entry['main/loss'] >= entry['main/rec_loss'] > 0
        assert entry['validation/main/loss'] >= entry['validation/main/rec_loss'] > 0
    assert log[1]['main/loss'] < log[0]['main/loss']
    files = os.listdir(tmp_path)
    assert 'model.npz' in files
    try:
        import PIL  # noqa: F401
    except ImportError:
        assert 'Pillow is not installed' in stdout
    else:
        for name in ('test_original.png', 'test_reconstructed.png', 'sampled.png'):
            assert name in files
