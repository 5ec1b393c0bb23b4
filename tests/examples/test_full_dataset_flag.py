"""The ``--dataset mnist`` paths of the examples (28x28 images), on a tiny fake MNIST
cache in Chainer's layout, so the full-dataset code runs without a download."""
import numpy
import pytest


@pytest.fixture(scope='module')
def fake_mnist_env(tmp_path_factory):
    root = tmp_path_factory.mktemp('dataset_root')
    directory = root / 'pfnet' / 'chainer' / 'mnist'
    directory.mkdir(parents=True)
    rng = numpy.random.RandomState(0)
    for name, n in (('train.npz', 120), ('test.npz', 40)):
        y = rng.randint(0, 10, n).astype(numpy.uint8)
        x = rng.randint(0, 256, (n, 784)).astype(numpy.uint8)
        numpy.savez_compressed(str(directory / name), x=x, y=y)
    return {'MINICHAINER_DATASET_ROOT': str(root), 'CHAINER_DATASET_ROOT': str(root)}


@pytest.mark.parametrize('script, args', [
    ('mnist/train_mnist.py', ('--epoch', 1, '--batchsize', 60, '--unit', 8, '--noplot')),
    ('cnn/train_cnn.py', ('--iterations', 6, '--batchsize', 20, '--width', 4, '--noplot')),
    ('custom_updater/train_custom_updater.py',
     ('--iterations', 2, '--batchsize', 10, '--snapshot_interval', 2,
      '--display_interval', 2)),
    ('vae/train_vae.py', ('--test', '--batchsize', 50)),
])
def test_mnist_flag(tmp_path, run_example, read_log, fake_mnist_env, script, args):
    run_example(script, '--dataset', 'mnist', '--out', tmp_path, *args, env=fake_mnist_env)
    assert read_log(tmp_path / 'log'), 'empty log'


def test_ptb_flag(tmp_path, run_example, read_log):
    """``--dataset ptb`` reads get_ptb_words' cache (Chainer's layout)."""
    directory = tmp_path / 'root' / 'pfnet' / 'chainer' / 'ptb'
    directory.mkdir(parents=True)
    words = ['<eos>', 'the', 'cat', 'sat', 'on', 'mat']
    (directory / 'vocab.txt').write_text(''.join(w + '\n' for w in words))
    rng = numpy.random.RandomState(0)
    for name in ('train.npz', 'valid.npz', 'test.npz'):
        numpy.savez_compressed(str(directory / name),
                               x=rng.randint(0, len(words), 300).astype(numpy.int32))
    root = str(tmp_path / 'root')
    stdout = run_example('ptb/train_ptb.py', '--dataset', 'ptb', '--test',
                         '--out', tmp_path / 'out',
                         env={'MINICHAINER_DATASET_ROOT': root, 'CHAINER_DATASET_ROOT': root})
    assert '#vocab = 6' in stdout
    assert 'test perplexity' in stdout
    assert read_log(tmp_path / 'out' / 'log')
