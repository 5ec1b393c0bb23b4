"""Smoke test of examples/ptb: --test mode, the custom iterator and the BPTT updater."""
import math
import os


def test_ptb_test_mode_and_resume(tmp_path, run_example, read_log):
    run_example('ptb/train_ptb.py', '--test', '--epoch', 1, '--out', tmp_path)
    assert [e['iteration'] for e in read_log(tmp_path / 'log')] == [1, 2, 3, 4]
    stdout = run_example('ptb/train_ptb.py', '--test', '--out', tmp_path,
                         '--resume', tmp_path / 'snapshot_iter_4')
    assert '#vocab = 39' in stdout
    assert '#words: train 100, valid 100, test 100' in stdout
    perplexity = float(stdout.rsplit('test perplexity: ', 1)[1])
    assert 1 < perplexity < 39 * 1.5   # from about the vocabulary size downwards
    log = read_log(tmp_path / 'log')
    # 5 streams x 5 steps = 25 words per update: 4 updates per 100-word epoch; the
    # resumed run continues the log of the first one.
    assert [e['iteration'] for e in log] == list(range(1, 9))
    assert [e['epoch'] for e in log][-1] == 2
    assert all(math.isclose(e['perplexity'], math.exp(e['main/loss'])) for e in log)
    assert 'val_perplexity' in log[3] and 'val_perplexity' in log[7]
    files = os.listdir(tmp_path)
    assert 'snapshot_iter_8' in files and 'model_iter_8' in files and 'model.npz' in files
    assert 'snapshot_iter_4' not in files   # n_retains=1
