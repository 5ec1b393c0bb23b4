"""Smoke test of examples/cnn: conv/BN/pooling/dropout and learning-rate shifts."""
import pytest

from tests.examples._run import read_log
from tests.examples._run import run_example

pytest.importorskip('sklearn')


@pytest.mark.parametrize('shift, lrs', [
    ('exponential', [0.05, 0.025]),   # halved after epoch 1 (--shift-every 1)
    ('multistep', [0.05, 0.0005]),    # tenfold drops at iterations 8 and 12 of 16
])
def test_cnn_lr_shift(tmp_path, shift, lrs):
    stdout = run_example('cnn/train_cnn.py', '--epoch', 2, '--batchsize', 200, '--width', 4,
                         '--shift', shift, '--shift-every', 1, '--noplot', '--out', tmp_path)
    log = read_log(tmp_path / 'log')
    assert [e['epoch'] for e in log] == [1, 2]
    assert [round(e['lr'], 6) for e in log] == lrs
    assert 'final iteration 15' in stdout
    assert 0 <= log[-1]['validation/main/accuracy'] <= 1
