"""examples/distributed/train_mnist_mpi.py under ``mpiexec -n 2``, then resumed."""
import json
import os

import pytest

from . import _launch

SCRIPT = os.path.join(_launch.ROOT, 'examples', 'distributed', 'train_mnist_mpi.py')


def test_train_mnist_mpi_and_autoload(tmp_path):
    pytest.importorskip('sklearn', reason='the example trains on the scikit-learn digits')
    out = str(tmp_path / 'result')
    rc, stdout, stderr, _ = _launch.run_mpi(
        [SCRIPT, '--epoch', '2', '--out', out, '--unit', '50', '--batchsize', '20'], timeout=90)
    assert rc == 0, stderr[-4000:]
    assert stdout.count('Num processes (COMM_WORLD): 2') == 1  # rank 0 prints only
    assert stdout.count('validation/main/accuracy') == 1
    with open(os.path.join(out, 'log')) as f:
        log = json.load(f)
    assert [e['epoch'] for e in log] == [1, 2]
    assert log[-1]['main/loss'] < log[0]['main/loss']
    assert 0.6 < log[-1]['validation/main/accuracy'] <= 1.0
    assert sorted(f for f in os.listdir(out) if f.startswith('snapshot')) == [
        'snapshot_epoch_1.0', 'snapshot_epoch_2.0']

    rc, stdout, stderr, _ = _launch.run_mpi(
        [SCRIPT, '--epoch', '3', '--out', out, '--unit', '50', '--batchsize', '20',
         '--autoload'], timeout=90)
    assert rc == 0, stderr[-4000:]
    with open(os.path.join(out, 'log')) as f:
        log2 = json.load(f)
    assert [e['epoch'] for e in log2] == [1, 2, 3]  # continued from the snapshot
    assert log2[:2] == log
