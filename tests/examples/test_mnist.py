"""Smoke tests of examples/mnist: trainer run, autoload, inference, custom loop (--resume)."""
import math
import os

import pytest


pytest.importorskip('sklearn')  # the embedded digits come from scikit-learn

# 1437 training digits, batch 180: epoch 1 ends at iteration 8, epoch 2 at 16; the 360
# test digits make two equal batches, so the Evaluator's mean of batch means is exact.
TINY = ('--batchsize', 180, '--unit', 16, '--noplot')


def test_train_autoload_and_inference(tmp_path, run_example, read_log):
    out = tmp_path / 'result'
    stdout = run_example('mnist/train_mnist.py', '--epoch', 1, '--out', out, *TINY)
    assert 'Device: @numpy' in stdout
    assert 'final iteration 8, epoch 1' in stdout
    assert 'validation/main/accuracy' in stdout
    log = read_log(out / 'log')
    # call_before_training: an epoch-0 entry with the untrained model's evaluation only
    assert [(e['epoch'], e['iteration']) for e in log] == [(0, 0), (1, 8)]
    assert 'main/loss' not in log[0] and 'validation/main/loss' in log[0]
    assert math.isfinite(log[1]['main/loss'])
    assert 0 <= log[1]['validation/main/accuracy'] <= 1
    assert os.path.exists(out / 'snapshot_iter_8')
    with open(out / 'cg.dot') as f:
        assert f.read().startswith('digraph')

    # --autoload picks snapshot_iter_8 up and trains epoch 2 only.
    stdout = run_example('mnist/train_mnist.py', '--epoch', 2, '--autoload', '--out', out,
                         *TINY)
    assert 'final iteration 16, epoch 2' in stdout
    log2 = read_log(out / 'log')
    # as Chainer: the resumed run keeps the epoch-0 entry and does not evaluate again
    # before continuing
    assert [e['epoch'] for e in log2] == [0, 1, 2]
    assert log2[:2] == log
    log = log2
    assert os.listdir(out).count('snapshot_iter_16') == 1
    assert 'snapshot_iter_8' not in os.listdir(out)  # n_retains=1

    stdout = run_example('mnist/inference.py', '--out', out, '--unit', 16, '--number', 3)
    assert 'snapshot_iter_16' in stdout
    assert stdout.count('predicted') == 3
    accuracy = float(stdout.rsplit('test images: ', 1)[1])
    # the loaded predictor reproduces the Evaluator's final figure
    assert abs(accuracy - log[-1]['validation/main/accuracy']) < 1e-4  # printed to 4 places


def test_custom_loop(tmp_path, run_example, read_log):
    stdout = run_example('mnist/train_mnist_custom_loop.py', '--epoch', 2, '--out', tmp_path,
                         '--batchsize', 200, '--unit', 16)
    lines = [line for line in stdout.splitlines() if line.startswith('epoch')]
    assert len(lines) == 2
    # is_new_epoch fires on the iteration that crosses the boundary: 8*200/1437
    assert '(epoch_detail 1.113)' in lines[0]
    assert os.path.exists(tmp_path / 'mlp.model')
    assert os.path.exists(tmp_path / 'mlp.state')
    stdout = run_example('mnist/train_mnist_custom_loop.py', '--epoch', 1, '--out', tmp_path,
                         '--batchsize', 200, '--unit', 16, '--resume', tmp_path / 'mlp.state')
    assert 'resumed at optimizer step 15' in stdout
    stdout = run_example('mnist/inference.py', '--model', tmp_path / 'mlp.model',
                         '--unit', 16, '--number', 1)
    assert 'accuracy on all 360 test images' in stdout
