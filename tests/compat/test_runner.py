"""The compat runner: ``python -m minichainer.compat SCRIPT`` and ``compat.install()``."""
import os
import subprocess
import sys
import textwrap

import pytest

import minichainer
from minichainer import compat

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _run(script, *args, cwd=None):
    env = dict(os.environ)
    env['PYTHONPATH'] = ROOT + os.pathsep + env.get('PYTHONPATH', '')
    return subprocess.run([sys.executable, '-m', 'minichainer.compat', str(script)]
                          + [str(a) for a in args], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=120)


def _write(path, source):
    path.write_text(textwrap.dedent(source))
    return path


def test_argv_main_sibling_import_and_exit_code(tmp_path):
    _write(tmp_path / 'helper_mod.py', """
        import chainer
        VALUE = chainer.__name__
    """)
    _write(tmp_path / 'prog.py', """
        import sys
        import chainer
        import chainer.functions as F
        import chainer.links as L
        from chainer import training
        from chainer.training import extensions
        import helper_mod
        assert sys.modules['chainer.functions'] is sys.modules['minichainer.functions']
        assert sys.modules['chainer.links'] is sys.modules['minichainer.links']
        assert sys.modules['chainer'] is sys.modules['minichainer']
        assert extensions is sys.modules['minichainer.training.extensions']
        print('argv', sys.argv)
        print('name', __name__)
        print('helper', helper_mod.VALUE)
        sys.exit(int(sys.argv[1]))
    """)
    proc = _run(tmp_path / 'prog.py', 5, '--flag')
    assert proc.returncode == 5, proc.stderr
    assert "argv ['{}', '5', '--flag']".format(tmp_path / 'prog.py') in proc.stdout
    assert 'name __main__' in proc.stdout
    assert 'helper minichainer' in proc.stdout


def test_exception_exit_code_and_traceback(tmp_path):
    _write(tmp_path / 'boom.py', """
        raise ValueError('boom here')
    """)
    proc = _run(tmp_path / 'boom.py')
    assert proc.returncode == 1
    assert 'ValueError: boom here' in proc.stderr
    assert 'runpy' not in proc.stderr


def test_missing_script_exits_2(tmp_path):
    proc = _run(tmp_path / 'nope.py')
    assert proc.returncode == 2
    assert 'nope.py' in proc.stderr


def test_no_arguments_prints_usage():
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, '-m', 'minichainer.compat'], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 2
    assert 'usage' in proc.stderr


def test_chainerx_cupy_and_missing_apis(tmp_path):
    _write(tmp_path / 'prog.py', """
        import chainerx
        assert chainerx.is_available() is False
        assert not isinstance(1, chainerx.ndarray)
        try:
            chainerx.array
        except AttributeError as e:
            print('chainerx:', e)
        try:
            import cupy
        except ImportError as e:
            print('cupy:', e)
        try:
            import chainer.links.caffe
        except ImportError as e:
            print('caffe:', e)
        try:
            from chainer import no_such_module
        except ImportError as e:
            print('missing:', e)
        try:
            import chainermn
        except ImportError as e:
            print('chainermn:', e)
    """)
    proc = _run(tmp_path / 'prog.py')
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert 'chainerx: chainerx.array is not available' in out
    from minichainer.backends import cuda
    if cuda.available:  # a GPU machine: `import cupy` works under the runner there
        assert 'cupy:' not in out
    else:
        assert 'cupy: No module named' in out and 'CuPy' in out
    assert 'caffe: chainer.links.caffe is not provided by minichainer: Caffe' in out
    assert 'missing:' in out and 'no_such_module' in out
    # until minichainer.distributed exists, chainermn is a clear ImportError
    import importlib.util
    if importlib.util.find_spec('minichainer.distributed') is None:
        assert 'chainermn:' in out and 'ChainerMN' in out


def test_gpu_device_gives_clear_error(tmp_path):
    _write(tmp_path / 'prog.py', """
        import chainer
        chainer.get_device(0)
    """)
    proc = _run(tmp_path / 'prog.py')
    assert proc.returncode == 1
    assert 'RuntimeError' in proc.stderr and 'no GPU backend' in proc.stderr


def test_multiprocessing_spawn_children_see_chainer(tmp_path):
    _write(tmp_path / 'prog.py', """
        import multiprocessing
        import chainer

        def work(_):
            import chainer
            import chainer.functions
            return chainer.__name__

        if __name__ == '__main__':
            ctx = multiprocessing.get_context('spawn')
            with ctx.Pool(1) as pool:
                print(pool.map(work, [0]))
    """)
    proc = _run(tmp_path / 'prog.py')
    assert proc.returncode == 0, proc.stderr
    assert "['minichainer']" in proc.stdout


class TestInstall:

    def setup_method(self):
        self._was_installed = compat.is_installed()

    def teardown_method(self):
        if not self._was_installed:
            compat.uninstall()

    def test_install_aliases_modules(self):
        compat.install()
        compat.install()  # idempotent
        import chainer
        import chainer.functions
        import chainer.links.connection.linear as linear
        import chainerx
        assert chainer is minichainer
        assert sys.modules['chainer.functions'] is sys.modules['minichainer.functions']
        assert linear is sys.modules['minichainer.links.connection.linear']
        assert linear.Linear is minichainer.links.Linear
        # the module keeps its own identity
        assert linear.__spec__.name == 'minichainer.links.connection.linear'
        assert chainer.functions.__spec__.name == 'minichainer.functions'
        assert chainer.functions.__name__ == 'minichainer.functions'
        assert chainerx.is_available() is False
        import importlib.util
        assert importlib.util.find_spec('chainerx') is not None
        assert importlib.util.find_spec('chainer').name == 'minichainer'
        from chainer.backends import cuda
        import chainer.cuda
        assert chainer.cuda is cuda
        assert sys.modules['chainer.cuda'] is cuda
        with pytest.raises(ImportError, match='cupy'):
            import cupy  # noqa: F401
        with pytest.raises(ImportError, match='chainer.exporters is not provided'):
            import chainer.exporters  # noqa: F401
        with pytest.raises(ImportError, match='chainer.no_such_thing is not provided'):
            import chainer.no_such_thing  # noqa: F401
        with pytest.raises(ImportError, match='chainer.optimizers.no_such is not provided'):
            import chainer.optimizers.no_such  # noqa: F401
        assert sum(1 for f in sys.meta_path
                   if type(f).__name__ == 'ChainerAliasFinder') == 1

    def test_uninstall(self):
        compat.install()
        compat.uninstall()
        assert not compat.is_installed()
        assert 'chainer' not in sys.modules
        with pytest.raises(ImportError):
            import chainer  # noqa: F401


def test_importing_a_submodule_keeps_the_function_that_shadows_it(tmp_path):
    # chainer.utils.experimental is a function and a module; importing the module under
    # its chainer.* name must not rebind the package attribute (as in Chainer).
    script = _write(tmp_path / 'shadow.py', """
        import chainer.utils.experimental
        import chainer.dataset.tabular.from_data
        from chainer import utils
        from chainer.dataset import tabular
        import sys
        assert callable(utils.experimental), utils.experimental
        assert callable(tabular.from_data), tabular.from_data
        assert type(sys.modules['chainer.utils.experimental']).__name__ != 'function'
        print('ok')
    """)
    result = _run(script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == 'ok'


def test_submodules_a_package_imported_are_registered_under_chainer_names(tmp_path):
    # As in Chainer, `from chainer.serializers import hdf5` leaves
    # sys.modules['chainer.serializers.hdf5'] behind; Chainer's test_hdf5 deletes it and
    # imports chainer.serializers again with h5py hidden, expecting `_available` False.
    script = _write(tmp_path / 'reimport.py', """
        import sys
        from chainer.serializers import hdf5
        assert sys.modules['chainer.serializers.hdf5'] is hdf5
        assert sys.modules['chainer.serializers.npz'] is sys.modules['minichainer.serializers.npz']
        real = sys.modules.get('h5py')
        sys.modules['h5py'] = None
        try:
            del sys.modules['chainer.serializers.hdf5']
            del sys.modules['chainer.serializers']
            import chainer.serializers
            assert chainer.serializers.hdf5._available is False
            try:
                chainer.serializers.save_hdf5(None, None, None)
            except RuntimeError:
                pass
            else:
                raise AssertionError('save_hdf5 without h5py did not raise')
        finally:
            if real is None:
                del sys.modules['h5py']
            else:
                sys.modules['h5py'] = real
        print('ok')
    """)
    result = _run(script)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == 'ok'


def test_run_in_process(tmp_path, monkeypatch):
    _write(tmp_path / 'prog.py', """
        import sys
        import chainer
        result = (sys.argv[1:], __name__, chainer.__name__)
    """)
    was_installed = compat.is_installed()
    argv = sys.argv[:]
    try:
        namespace = compat.run(tmp_path / 'prog.py', ['x', 1])
    finally:
        if not was_installed:
            compat.uninstall()
    assert namespace['result'] == (['x', '1'], '__main__', 'minichainer')
    assert sys.argv == argv
    with pytest.raises(FileNotFoundError):
        compat.run(tmp_path / 'missing.py')


def test_module_mode_and_child_processes(tmp_path):
    _write(tmp_path / 'mymod.py', """
        import subprocess
        import sys
        import chainer
        print('module', __name__, sys.argv[1:], chainer.__name__)
        child = subprocess.run(
            [sys.executable, '-c', 'import chainer, chainerx; '
             'print(chainer.__name__, chainerx.is_available())'],
            capture_output=True, text=True)
        print('child', child.stdout.strip(), child.returncode)
        sys.exit(4)
    """)
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, '-m', 'minichainer.compat', '-m', 'mymod', 'a'],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path),
                          timeout=120)
    assert proc.returncode == 4, proc.stderr
    assert "module __main__ ['a'] minichainer" in proc.stdout
    assert 'child minichainer False 0' in proc.stdout


def test_module_mode_runs_a_chainer_style_test_suite(tmp_path):
    _write(tmp_path / 'test_suite.py', """
        import unittest
        import numpy
        import chainer.functions as F
        from chainer import testing

        @testing.parameterize(*testing.product({'shape': [(2,), (3, 2)]}))
        @testing.inject_backend_tests(None, [{}, {'use_cuda': True}])
        class TestTanh(testing.FunctionTestCase):
            def generate_inputs(self):
                return numpy.random.uniform(-1, 1, self.shape).astype(numpy.float64),

            def forward(self, inputs, device):
                return F.tanh(inputs[0]),

            def forward_expected(self, inputs):
                return numpy.tanh(inputs[0]),

        class TestFails(unittest.TestCase):
            def test_fails(self):
                assert False
    """)
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, '-m', 'minichainer.compat', '-m', 'pytest', '-q',
                           '-p', 'no:cacheprovider', 'test_suite.py'],
                          capture_output=True, text=True, env=env, cwd=str(tmp_path),
                          timeout=120)
    assert proc.returncode == 1
    assert '1 failed, 6 passed, 6 skipped' in proc.stdout


def test_module_mode_without_name():
    env = dict(os.environ, PYTHONPATH=ROOT)
    proc = subprocess.run([sys.executable, '-m', 'minichainer.compat', '-m'],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2 and 'module name' in proc.stderr
