"""benchmarks/gpu_check.py (`make gpu-check`) tested on the CPU: Chainer's MNIST example end
to end on `@cupy:0` through the compat runner with the CuPy test double (on a GPU run,
gpu_check runs it on the real GPU itself), its GPU snapshot resumed on the CPU and the
reverse, the speed and CPU sections at tiny sizes, the closing table, arguments, and a
clear failure (no hang) where there is no CuPy."""
import importlib.util
import json
import os
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPT = os.path.join(ROOT, 'benchmarks', 'gpu_check.py')
MIRROR = '/work/.mirror/chainer+chainer/repo'
REAL = os.environ.get('MINICHAINER_TEST_REAL_CUPY') == '1'


def _load():
    spec = importlib.util.spec_from_file_location('gpu_check', SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args, timeout=240, dry_run=True):
    env = dict(os.environ)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    for var in ('OMP_NUM_THREADS', 'OPENBLAS_NUM_THREADS', 'MKL_NUM_THREADS'):
        env[var] = '1'
    cmd = [sys.executable, SCRIPT] + (['--dry-run'] if dry_run else []) + list(args)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=ROOT)


@pytest.fixture(scope='module')
def chainer_mnist(tmp_path_factory):
    """Chainer's own examples/mnist/train_mnist.py, from the mirror (None without it)."""
    path = os.path.join(ROOT, 'build', 'chainer_examples', 'train_mnist.py')
    if os.path.exists(path):
        return path
    if not os.path.isdir(MIRROR):
        return None
    out = tmp_path_factory.mktemp('chainer_examples') / 'train_mnist.py'
    text = subprocess.run(['git', '-C', MIRROR, 'show', 'HEAD:examples/mnist/train_mnist.py'],
                          capture_output=True, text=True, timeout=60)
    if text.returncode != 0:
        return None
    out.write_text(text.stdout)
    return str(out)


def test_chainer_mnist_example_on_cupy_and_resumed_across_devices(tmp_path, chainer_mnist):
    if REAL:
        pytest.skip('make gpu-check runs this example on the real GPU itself')
    if chainer_mnist is None:
        pytest.skip("Chainer's train_mnist.py is not available (no Chainer mirror)")
    results = tmp_path / 'results.json'
    proc = _run('--sections', 'env,example,resume', '--chainer-mnist', chainer_mnist,
                '--json', str(results))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    data = json.loads(results.read_text())
    sections = data['sections']
    assert [sections[s]['status'] for s in ('env', 'example', 'resume')] == ['ok'] * 3
    assert "Chainer's examples/mnist/train_mnist.py" in sections['example']['detail']
    assert 'NOT RUN' not in proc.stdout
    assert 'train_mnist.py: GPU snapshot resumed on the CPU' in sections['resume']['detail']
    assert proc.stdout.rstrip().splitlines()[-1].startswith('section resume')


def test_speed_and_cpu_sections_print_one_table_last(tmp_path):
    if REAL:
        pytest.skip('timed on a GPU by make gpu-check itself')
    results = tmp_path / 'results.json'
    proc = _run('--sections', 'speed,cpu', '--speed-cases', 'mlp,per_op',
                '--json', str(results))
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-4000:]
    data = json.loads(results.read_text())
    assert data['dry_run'] is True
    titles = [row[0] for row in data['rows']]
    assert titles[:2] == ['MLP 784-1000-1000-10, b256, step', 'small op fwd+bwd, per op']
    assert titles[2].startswith('CPU convnet b64 step, 1 thread')
    assert all(row[1].endswith(('ms', 'us')) for row in data['rows'])
    lines = proc.stdout.rstrip().splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith('gpu-check (DRY RUN'))
    assert lines[header + 1].split()[:2] == ['check', 'minichainer']
    assert lines[-1].startswith('CPU convnet b64 step, 1 thread')


def test_without_cupy_it_fails_clearly_and_quickly(tmp_path):
    if REAL:
        pytest.skip('CuPy is there')
    results = tmp_path / 'results.json'
    proc = _run('--sections', 'env,example,speed', '--budget', '60', '--json',
                str(results), dry_run=False, timeout=120)
    assert proc.returncode == 1
    assert 'no usable CuPy/GPU' in proc.stdout
    data = json.loads(results.read_text())
    assert [data['sections'][s]['status'] for s in ('env', 'example', 'speed')] == \
        ['FAILED'] * 3
    assert data['seconds'] < 60
    assert proc.stdout.rstrip().splitlines()[-1].startswith('section speed')


@pytest.mark.parametrize('args,message', [
    (['--sections', 'env,gpu'], 'unknown section(s) gpu'),
    (['--speed-cases', 'vgg'], 'unknown speed case(s) vgg'),
    (['--budget', '0'], '--budget must be a positive number'),
])
def test_bad_arguments_are_refused(capsys, args, message):
    gpu_check = _load()
    with pytest.raises(SystemExit) as info:
        gpu_check.parse_args(args)
    assert info.value.code == 2
    assert message in capsys.readouterr().err


def test_table_lists_sections_then_cases():
    gpu_check = _load()
    lines = gpu_check.format_table(
        {'name': 'NVIDIA H100', 'cupy': '14.2.0', 'torch': '2.11', 'numpy': '2.5'},
        {'env': {'status': 'ok', 'detail': 'x' * 80, 'seconds': 1.0}},
        [('MLP', '1.000 ms', '0.800 ms', '1.25x', '<= 1.5x', 'ok')], 12.3)
    assert lines[1] == 'gpu-check: NVIDIA H100 | CuPy 14.2.0 | PyTorch 2.11 | NumPy 2.5 | 12 s'
    assert lines[2].split() == ['check', 'minichainer', 'PyTorch', 'ratio', 'target',
                                'verdict']
    assert lines[4].startswith('section env') and lines[4].endswith('ok')
    assert '...' in lines[4] and len(lines[4]) < 120
    assert lines[5].split()[0] == 'MLP' and lines[5].split()[-1] == 'ok'


def test_a_hanging_child_is_killed_with_its_group_and_its_output_kept():
    gpu_check = _load()
    code = ('import subprocess, sys, time\n'
            'subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])\n'
            'print("started", flush=True)\n'
            'time.sleep(60)\n')
    with pytest.raises(gpu_check.ChildTimeout) as info:
        gpu_check.run_child([sys.executable, '-c', code], 3, False)
    assert 'timed out after 3 s' in str(info.value)
    assert info.value.output.startswith('started')


def test_progress_of_a_cut_short_pytest_run_and_the_time_reserved():
    gpu_check = _load()
    assert gpu_check._progress('..F.s [ 10%]\n..E\nsome text\n') == \
        '5 passed, 1 failed, 1 errors, 1 skipped'
    assert gpu_check._progress('collecting ...') == 'no test finished'
    check = gpu_check.Check(gpu_check.parse_args([]))
    assert check._reserve('tests') == 150 + 45  # speed and cpu run after the tests
    assert check._reserve('cpu') == 0
    check = gpu_check.Check(gpu_check.parse_args(['--sections', 'tests,cpu']))
    assert check._reserve('tests') == 45


def test_tests_section_reports_counts_and_a_run_cut_short(monkeypatch, tmp_path):
    gpu_check = _load()
    calls = []

    def fake_run_child(cmd, timeout, dry_run, env_extra=None, cwd=None):
        calls.append((cmd, timeout, env_extra))
        if '-m' in cmd[3:]:
            return 5, 'no tests ran in 0.5s\n'
        raise gpu_check.ChildTimeout('timed out', '....F.. [ 50%]\n..s\n')

    monkeypatch.setattr(gpu_check, 'run_child', fake_run_child)
    check = gpu_check.Check(gpu_check.parse_args(['--out', str(tmp_path)]))
    check.env = {'count': 1}  # as if env had found a GPU
    check.run_section('tests', check.section_tests, 30)
    assert [c[2] for c in calls] == [{'MINICHAINER_TEST_REAL_CUPY': '1'}] * 2
    assert calls[0][0][-2:] == ['-m', 'gpu'] and calls[1][0][-2:] == ['-k', 'cupy']
    assert calls[0][1] <= 240  # capped, leaving the speed and CPU sections their time
    assert check.sections['tests']['status'] == 'FAILED'
    rows = {row[0]: row for row in check.rows}
    assert rows['tests -m gpu'][1:] == ('no tests ran in 0.5s', '', '', 'all pass', 'ok')
    assert rows['tests -k cupy'][1].startswith('TIMED OUT')
    assert rows['tests -k cupy'][1].endswith('8 passed, 1 failed, 1 skipped')
    assert rows['tests -k cupy'][-1] == 'FAILED'
    assert (tmp_path / 'tests_cupy.log').read_text().startswith('....F..')


def test_speed_verdicts_against_the_targets(monkeypatch):
    gpu_check = _load()
    results = {'mlp': {'unit': 'ms', 'minichainer': 0.0014, 'pytorch': 0.001},
               'convnet': {'unit': 'ms', 'minichainer': 0.0016, 'pytorch': 0.001},
               'resnet50': {'unit': 'ms', 'minichainer': 0.2, 'pytorch': 0.1,
                            'where': 'forward 80.0 ms'},
               'resnet50_mixed16': {'unit': 'ms', 'minichainer': 0.15, 'pytorch': 0.05},
               'per_op': {'unit': 'us', 'minichainer': 20e-6, 'pytorch': 9e-6}}
    monkeypatch.setattr(gpu_check.Check, '_worker',
                        lambda self, case, timeout, extra=(): results[case])
    check = gpu_check.Check(gpu_check.parse_args([]))
    check.env = {'count': 1, 'torch_cuda': True}
    check.run_section('speed', check.section_speed, 30)
    verdicts = {row[0]: (row[3], row[5]) for row in check.rows}
    assert verdicts['MLP 784-1000-1000-10, b256, step'] == ('1.40x', 'ok')
    assert verdicts['convnet (bench_convnet), b256, step'] == ('1.60x', 'MISSED')
    assert verdicts['ResNet-50 b64 float32, step'] == ('2.00x', 'ok')
    assert verdicts['ResNet-50 b64 mixed16, step'] == ('3.00x', 'MISSED')
    assert verdicts['small op fwd+bwd, per op'] == ('2.22x', 'MISSED')
    assert verdicts['ResNet-50 mixed16 faster than float32'][1] == 'ok'
    assert check.where == {'resnet50': 'forward 80.0 ms'}
    assert check.sections['speed']['status'] == 'ok'  # targets missed are not failures
    check.env = {'count': 1, 'torch_error': 'no PyTorch: No module named torch'}
    check.rows = []
    check.run_section('speed', check.section_speed, 30)
    assert check.sections['speed']['status'] == 'FAILED'
    assert 'no comparison' in check.sections['speed']['detail']
