"""Smoke test of examples/cnn: conv/BN/pooling/dropout and learning-rate shifts."""
import pytest


pytest.importorskip('sklearn')

TINY = ('--batchsize', 200, '--width', 4, '--shift-every', 1, '--noplot')


@pytest.mark.parametrize('shift, lrs', [
    ('exponential', [0.05, 0.025]),   # halved after epoch 1 (--shift-every 1)
    ('multistep', [0.05, 0.0005]),    # tenfold drops at iterations 8 and 12 of 16
])
def test_cnn_lr_shift(tmp_path, shift, lrs, run_example, read_log):
    stdout = run_example('cnn/train_cnn.py', '--epoch', 2, '--shift', shift,
                         '--out', tmp_path, *TINY)
    log = read_log(tmp_path / 'log')
    assert [e['epoch'] for e in log] == [1, 2]
    assert [round(e['lr'], 6) for e in log] == lrs
    assert 'final iteration 15' in stdout
    assert 0 <= log[-1]['validation/main/accuracy'] <= 1
    if shift == 'exponential':
        # --autoload continues the run and the schedule from snapshot_iter_15
        stdout = run_example('cnn/train_cnn.py', '--epoch', 3, '--autoload',
                             '--out', tmp_path, *TINY)
        log = read_log(tmp_path / 'log')
        assert [round(e['lr'], 6) for e in log] == [0.05, 0.025, 0.0125]
        assert 'final iteration 22, lr 0.00625' in stdout
