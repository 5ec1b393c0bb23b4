"""Chainer-style programs (tests/e2e/programs) run unmodified through the compat runner on
tiny generated data: Trainer + extensions, autoload/resume, a custom loop, a two-optimizer
GAN updater with sibling modules and Pillow output, a BPTT language model."""
import json
import os
import subprocess
import sys

import numpy
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = os.path.join(HERE, 'programs')
ROOT = os.path.dirname(os.path.dirname(HERE))


def run_program(script, *args, env_extra=None, cwd=None):
    env = dict(os.environ)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    env['MPLBACKEND'] = 'Agg'
    env.update(env_extra or {})
    proc = subprocess.run(
        [sys.executable, '-m', 'minichainer.compat', os.path.join(PROGRAMS, script)]
        + [str(a) for a in args], capture_output=True, text=True, env=env, cwd=cwd,
        timeout=300)
    assert proc.returncode == 0, 'stdout:\n{}\nstderr:\n{}'.format(proc.stdout, proc.stderr)
    return proc


@pytest.fixture(scope='module')
def mnist_root(tmp_path_factory):
    """A dataset root holding a tiny fake MNIST cache in Chainer's layout."""
    root = tmp_path_factory.mktemp('dataset_root')
    directory = root / 'pfnet' / 'chainer' / 'mnist'
    directory.mkdir(parents=True)
    rng = numpy.random.RandomState(0)
    for name, n in (('train.npz', 100), ('test.npz', 40)):
        y = rng.randint(0, 10, n).astype(numpy.uint8)
        x = rng.randint(0, 60, (n, 784)).astype(numpy.uint8)
        for i in range(n):
            x[i, int(y[i]) * 70:(int(y[i]) + 1) * 70] = 250  # learnable pattern
        numpy.savez_compressed(str(directory / name), x=x, y=y)
    return {'CHAINER_DATASET_ROOT': str(root), 'MINICHAINER_DATASET_ROOT': str(root)}


def _log(path):
    with open(path) as f:
        return json.load(f)


def test_mnist_trainer_autoload_and_resume(tmp_path, mnist_root):
    out = tmp_path / 'result'
    proc = run_program('mnist_mlp.py', '--out', out, '--epoch', 2, '--gpu', -1,
                       env_extra=mnist_root)
    assert 'Device: @numpy' in proc.stdout
    assert 'final iteration 10' in proc.stdout
    for line in ('epoch', 'main/loss', 'validation/main/accuracy'):
        assert line in proc.stdout
    log = _log(out / 'log')
    # Evaluator/LogReport registered with call_before_training: as in Chainer, an
    # iteration-0 entry holding the untrained model's evaluation comes first
    assert [entry['epoch'] for entry in log] == [0, 1, 2]
    assert [entry['iteration'] for entry in log] == [0, 5, 10]
    assert 'main/loss' not in log[0]
    assert all(numpy.isfinite(entry['validation/main/loss']) for entry in log)
    assert log[2]['main/loss'] < log[1]['main/loss']
    for name in ('cg.dot', 'loss.png', 'accuracy.png', 'snapshot_iter_10'):
        assert (out / name).exists(), name
    assert 'digraph' in (out / 'cg.dot').read_text()

    # --autoload picks up snapshot_iter_10 and trains one more epoch; n_retains=1
    proc = run_program('mnist_mlp.py', '--out', out, '--epoch', 3, '--autoload',
                       '--noplot', '--device', '@numpy', env_extra=mnist_root)
    assert 'final iteration 15' in proc.stdout
    assert sorted(p.name for p in out.glob('snapshot_iter_*')) == ['snapshot_iter_15']
    log = _log(out / 'log')
    assert [entry['iteration'] for entry in log] == [0, 5, 10, 15]

    # --resume from an explicit snapshot into a fresh output directory
    out2 = tmp_path / 'resumed'
    proc = run_program('mnist_mlp.py', '--out', out2, '--epoch', 4, '--noplot',
                       '--resume', out / 'snapshot_iter_15', env_extra=mnist_root)
    assert 'final iteration 20' in proc.stdout
    assert [entry['epoch'] for entry in _log(out2 / 'log')] == [0, 1, 2, 3, 4]


# Keys Chainer 7.8.1's ``save_npz(path, trainer)`` writes for mnist_mlp.py (from
# Trainer/StandardUpdater/SerialIterator/Adam/LogReport/PlotReport/DumpGraph/
# IntervalTrigger.serialize): the layout a snapshot from Chainer must have to load here.
def _chainer7_keys(plot):
    keys = {'_snapshot_elapsed_time', 'updater/iteration', 'updater/optimizer:main/t',
            'updater/optimizer:main/epoch',
            'stop_trigger/previous_epoch_detail', 'stop_trigger/previous_iteration',
            'extensions/LogReport/_log', 'extensions/LogReport/_summary/_names',
            'extensions/LogReport/_trigger/previous_epoch_detail',
            'extensions/LogReport/_trigger/previous_iteration',
            'extensions/dump_graph/_flag_called', 'extensions/dump_graph/_original_flag'}
    for name in ('current_position', 'epoch', 'is_new_epoch', 'order',
                 'previous_epoch_detail'):
        keys.add('updater/iterator:main/' + name)
    for layer in ('fc1', 'fc2', 'out'):
        for p in ('W', 'b'):
            keys.add('updater/model:main/predictor/{}/{}'.format(layer, p))
            for s in ('m', 'v', 't'):
                keys.add('updater/optimizer:main/predictor/{}/{}/{}'.format(layer, p, s))
    extensions = ['LogReport', 'PrintReport', 'ProgressBar', '_Snapshot', 'validation']
    if plot:
        extensions += ['PlotReport', 'PlotReport_1']
        keys |= {'extensions/PlotReport/_plot_loss.png',
                 'extensions/PlotReport_1/_plot_accuracy.png'}
    for name in extensions:
        keys.add('extension_triggers/{}/previous_epoch_detail'.format(name))
        keys.add('extension_triggers/{}/previous_iteration'.format(name))
    return keys


def test_snapshot_in_chainer7_layout_resumes(tmp_path, mnist_root):
    out = tmp_path / 'result'
    run_program('mnist_mlp.py', '--out', out, '--epoch', 1, '--noplot',
                env_extra=mnist_root)
    with numpy.load(str(out / 'snapshot_iter_5'), allow_pickle=False) as npz:
        saved = {k: npz[k] for k in npz.files}
    # minichainer adds the global RNG state; Chainer 7 snapshots have no such keys
    chainer_only = {k: v for k, v in saved.items()
                    if not k.startswith('_numpy_random_state/')}
    assert set(chainer_only) == _chainer7_keys(plot=False)
    path = tmp_path / 'chainer7_snapshot.npz'
    numpy.savez(str(path), **chainer_only)
    out2 = tmp_path / 'continued'
    proc = run_program('mnist_mlp.py', '--out', out2, '--epoch', 2, '--noplot',
                       '--resume', path, env_extra=mnist_root)
    assert 'final iteration 10' in proc.stdout
    log = _log(out2 / 'log')
    assert [e['iteration'] for e in log] == [0, 5, 10]
    assert log[1]['main/loss'] == pytest.approx(_log(out / 'log')[1]['main/loss'])


def test_mnist_custom_loop_and_reload(tmp_path, mnist_root):
    proc = run_program('mnist_loop.py', '--out', tmp_path, '--epoch', 2,
                       env_extra=mnist_root)
    assert 'epoch 2 test loss' in proc.stdout
    assert 'optimizer.t = 8' in proc.stdout
    assert (tmp_path / 'mlp.model').exists() and (tmp_path / 'mlp.state').exists()
    proc = run_program('mnist_loop.py', '--out', tmp_path, '--epoch', 1, '--resume',
                       tmp_path, env_extra=mnist_root)
    assert 'optimizer.t = 12' in proc.stdout


def test_gan_two_optimizers_snapshot_object_and_image(tmp_path):
    Image = pytest.importorskip('PIL.Image')
    images = tmp_path / 'images'
    images.mkdir()
    rng = numpy.random.RandomState(0)
    for i in range(8):
        Image.fromarray(rng.randint(0, 255, (8, 8, 3)).astype(numpy.uint8)).save(
            str(images / 'img{}.png'.format(i)))
    out = tmp_path / 'result'
    proc = run_program('gan/train_gan.py', '--dataset', images, '--out', out,
                       '--epoch', 2, '--device', -1)
    assert 'done at iteration 4' in proc.stdout
    for name in ('snapshot_iter_4.npz', 'gen_iter_4.npz', 'dis_iter_4.npz',
                 'preview/image00000004.png'):
        assert (out / name).exists(), name
    with Image.open(str(out / 'preview' / 'image00000004.png')) as image:
        assert image.size == (16, 16)
    log = _log(out / 'log')
    assert [e['iteration'] for e in log] == [2, 4]
    assert all(numpy.isfinite(e['gen/loss']) and numpy.isfinite(e['dis/loss']) for e in log)
    with numpy.load(str(out / 'snapshot_iter_4.npz')) as npz:
        assert 'updater/optimizer:gen/dc1/W/m' in npz.files
        assert 'updater/model:dis/bn1/avg_mean' in npz.files
        assert 'updater/optimizer:dis/t' in npz.files
    with numpy.load(str(out / 'gen_iter_4.npz')) as npz:
        assert 'l0/W' in npz.files and 'bn0/avg_var' in npz.files
    proc = run_program('gan/train_gan.py', '--dataset', images, '--out', out, '--epoch', 3,
                       '--resume', out / 'snapshot_iter_4.npz')
    assert 'done at iteration 6' in proc.stdout


def test_ptb_bptt_language_model(tmp_path):
    data = tmp_path / 'data'
    data.mkdir()
    rng = numpy.random.RandomState(0)
    for name, size in (('train', 80), ('valid', 20), ('test', 20)):
        numpy.save(str(data / (name + '.npy')),
                   (numpy.arange(size) % 7 + rng.randint(0, 2, size)).astype(numpy.int32))
    out = tmp_path / 'result'
    proc = run_program('ptb_lm.py', '--data', data, '--out', out, '--epoch', 2)
    assert '#vocab = 8' in proc.stdout
    perplexity = float(proc.stdout.split('test perplexity:')[1].split()[0])
    assert 1 < perplexity < 8  # better than uniform over the vocabulary
    log = _log(out / 'log')
    assert [e['iteration'] for e in log] == [2, 4, 6, 8]
    assert 'val_perplexity' in log[-1] and 'perplexity' in log[0]
    for name in ('snapshot_iter_8', 'model_iter_8', 'model.npz'):
        assert (out / name).exists(), name
    proc = run_program('ptb_lm.py', '--data', data, '--out', out, '--epoch', 3,
                       '--resume', out / 'snapshot_iter_8')
    assert [e['iteration'] for e in _log(out / 'log')][-1] == 12


@pytest.mark.parametrize('args', [('--gpu', '0'), ('--device', '@cupy:0'),
                                  ('--device', 'native:0')])
def test_gpu_and_chainerx_devices_fail_clearly(tmp_path, args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run(
        [sys.executable, '-m', 'minichainer.compat', os.path.join(PROGRAMS, 'mnist_mlp.py'),
         '--out', str(tmp_path)] + list(args),
        capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith('RuntimeError: get_device:')
    assert 'CPU' in last or '@numpy' in last
