"""CuPy is imported lazily: the CPU path never imports or resolves it; under the compat
runner `import cupy` works only where CuPy can really be used (checked with an importable
stand-in package that loads the CuPy test double)."""
import os
import subprocess
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOUBLE = os.path.join(ROOT, 'tests', 'cupy_double')

_SHIM = '''
import importlib.util, os, sys
if 'cupy_double' not in sys.modules:
    path = os.environ['CUPY_DOUBLE_PATH']
    spec = importlib.util.spec_from_file_location(
        'cupy_double', os.path.join(path, '__init__.py'), submodule_search_locations=[path])
    module = importlib.util.module_from_spec(spec)
    sys.modules['cupy_double'] = module
    spec.loader.exec_module(module)
    module.set_device_count(int(os.environ.get('CUPY_DOUBLE_GPUS', '1')))
sys.modules.update(sys.modules['cupy_double']._module_table())
'''


def _python(args, tmp_path, extra_path=None, gpus=None):
    env = dict(os.environ)
    paths = [ROOT] + ([str(extra_path)] if extra_path else [])
    env['PYTHONPATH'] = os.pathsep.join(paths + [env.get('PYTHONPATH', '')])
    env['CUPY_DOUBLE_PATH'] = DOUBLE
    env.pop('MINICHAINER_TEST_REAL_CUPY', None)
    if gpus is not None:
        env['CUPY_DOUBLE_GPUS'] = str(gpus)
    return subprocess.run([sys.executable] + args, capture_output=True, text=True, env=env,
                          cwd=str(tmp_path), timeout=120)


def _fake_cupy_package(tmp_path):
    site = tmp_path / 'site'
    for name in ('cupy', 'cupyx'):
        (site / name).mkdir(parents=True)
        (site / name / '__init__.py').write_text(_SHIM)
    return site


def test_cpu_training_step_never_imports_cupy(tmp_path):
    code = textwrap.dedent('''
        import sys
        import numpy
        import minichainer
        import minichainer.functions as F
        import minichainer.links as L
        from minichainer.backends import cuda
        assert 'cupy' not in sys.modules
        model = L.Classifier(L.Linear(4, 3))
        opt = minichainer.optimizers.Adam()
        opt.setup(model)
        x = numpy.random.rand(8, 4).astype(numpy.float32)
        t = numpy.random.randint(0, 3, 8).astype(numpy.int32)
        model.cleargrads()
        model(x, t).backward()
        opt.update()
        print(minichainer.backend.get_array_module(x).__name__, minichainer.get_device(-1),
              'cupy' in sys.modules, cuda.cupy_state.resolved)
    ''')
    proc = _python(['-c', code], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ['numpy', '@numpy', 'False', 'False']


_PROGRAM = '''
import numpy
import cupy
import chainer
import chainer.functions as F
from chainer.backends import cuda
print('cupy', getattr(cupy, 'is_cupy_double', False), cuda.available)
device = chainer.get_device('@cupy:0')
y = F.relu(device.send(numpy.array([-1.0, 2.0], numpy.float32)))
print('y', type(y.array).__module__, cuda.to_cpu(y.array).tolist())
# the older idiom of Chainer's examples: --gpu 0
import warnings
warnings.simplefilter('ignore', DeprecationWarning)
import chainer.links as L
cuda.get_device_from_id(int('0')).use()
model = L.Linear(2, 1)
model.to_gpu()
print('to_gpu', type(model.W.array).__module__, model.device)
'''


def test_cupy_imports_under_the_runner_where_a_gpu_answers(tmp_path):
    site = _fake_cupy_package(tmp_path)
    (tmp_path / 'prog.py').write_text(_PROGRAM)
    proc = _python(['-m', 'minichainer.compat', 'prog.py'], tmp_path, extra_path=site)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == ['cupy True True', 'y cupy [0.0, 2.0]',
                                        'to_gpu cupy @cupy:0']


def test_cupy_refused_under_the_runner_where_no_gpu_answers(tmp_path):
    site = _fake_cupy_package(tmp_path)
    (tmp_path / 'prog.py').write_text(_PROGRAM)
    proc = _python(['-m', 'minichainer.compat', 'prog.py'], tmp_path, extra_path=site,
                   gpus=0)
    assert proc.returncode == 1
    assert 'ModuleNotFoundError' in proc.stderr
    assert 'CuPy is installed but cannot be used' in proc.stderr
    assert 'no CUDA-capable device' in proc.stderr


def test_cupy_gpu_request_without_a_gpu_outside_the_runner(tmp_path):
    site = _fake_cupy_package(tmp_path)
    code = textwrap.dedent('''
        import minichainer
        from minichainer.backends import cuda
        try:
            minichainer.get_device('@cupy:0')
        except RuntimeError as e:
            print(cuda.available, e)
    ''')
    proc = _python(['-c', code], tmp_path, extra_path=site, gpus=0)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith('False get_device: GPU device ')
    assert 'no GPU backend is available' in proc.stdout
    assert 'cudaErrorNoDevice' in proc.stdout
